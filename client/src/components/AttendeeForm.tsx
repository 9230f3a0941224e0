import { Picker, Text, View } from '@tarojs/components';
import { TextField } from './Field';
import Icon from './icon/Icon';
import {
  ID_TYPE_LABELS,
  ID_TYPE_OPTIONS,
  type AttendeeErrors,
  type AttendeeInput,
  type IdType,
} from '../services/attendees';

/** ID type and number: every form that takes an ID (order attendees, 常用观演人, the queue's ID). */
export function IdFields(props: {
  idType: IdType;
  idNumber: string;
  testid: string;
  onChange: (patch: Partial<Pick<AttendeeInput, 'idType' | 'idNumber'>>) => void;
}) {
  const { idType, idNumber, onChange } = props;
  return (
    <>
      <View className="field">
        <Text className="field__label">证件类型</Text>
        <Picker
          mode="selector"
          range={ID_TYPE_OPTIONS.map((o) => o.label)}
          value={ID_TYPE_OPTIONS.findIndex((o) => o.value === idType)}
          onChange={(e) => onChange({ idType: ID_TYPE_OPTIONS[Number(e.detail.value)]!.value })}
        >
          <View className="field__picker">
            <Text>{ID_TYPE_LABELS[idType]}</Text>
            <Icon name="chevron-down" color="ink3" size="sm" />
          </View>
        </Picker>
      </View>
      <TextField
        label="证件号码"
        testid={props.testid}
        placeholder="请输入证件号码"
        value={idNumber}
        maxlength={32}
        type={idType === 'id_card' ? 'idcard' : 'text'}
        onInput={(v) => onChange({ idNumber: v })}
      />
    </>
  );
}

interface AttendeeFieldsProps {
  value: AttendeeInput;
  errors: AttendeeErrors;
  /** Only the changed field: merged by the page, so quick successive inputs never undo each other. */
  onChange: (patch: Partial<AttendeeInput>) => void;
  testids?: { name: string; idNumber: string };
}

/** Name, ID type and number of one person, each with its complaint. */
export function AttendeeFields({
  value,
  errors,
  onChange,
  testids = { name: 'attendee-name', idNumber: 'attendee-id' },
}: AttendeeFieldsProps) {
  return (
    <>
      <TextField
        label="姓名"
        testid={testids.name}
        placeholder="与证件一致的姓名"
        value={value.name}
        maxlength={32}
        onInput={(v) => onChange({ name: v })}
      />
      {errors.name ? <Text className="field__error">{errors.name}</Text> : null}
      <IdFields
        idType={value.idType}
        idNumber={value.idNumber}
        testid={testids.idNumber}
        onChange={onChange}
      />
      {errors.idNumber ? <Text className="field__error">{errors.idNumber}</Text> : null}
    </>
  );
}

/** One ticket's holder: name, ID type and number (real-name sessions). */
export default function AttendeeForm({
  index,
  seatLabel,
  ...fields
}: Omit<AttendeeFieldsProps, 'testids'> & { index: number; seatLabel: string }) {
  return (
    <View className="attendee" data-testid="attendee">
      <View className="attendee__head">
        <Text className="attendee__no">观演人 {index + 1}</Text>
        <Text className="attendee__seat">{seatLabel}</Text>
      </View>
      <AttendeeFields {...fields} />
    </View>
  );
}
