import { Input, Picker, Text, View } from '@tarojs/components';
import {
  ID_TYPE_LABELS,
  ID_TYPE_OPTIONS,
  type AttendeeErrors,
  type AttendeeInput,
} from '../services/attendees';

interface AttendeeFormProps {
  index: number;
  seatLabel: string;
  value: AttendeeInput;
  errors: AttendeeErrors;
  /** Only the changed field: merged by the page, so quick successive inputs never undo each other. */
  onChange: (patch: Partial<AttendeeInput>) => void;
}

/** One ticket's holder: name, ID type and number (real-name sessions). */
export default function AttendeeForm({ index, seatLabel, value, errors, onChange }: AttendeeFormProps) {
  return (
    <View className="attendee" data-testid="attendee">
      <View className="attendee__head">
        <Text className="attendee__no">观演人 {index + 1}</Text>
        <Text className="attendee__seat">{seatLabel}</Text>
      </View>
      <View className="field">
        <Text className="field__label">姓名</Text>
        <Input
          className="field__input"
          data-testid="attendee-name"
          placeholder="与证件一致的姓名"
          value={value.name}
          maxlength={32}
          onInput={(e) => onChange({ name: e.detail.value })}
        />
      </View>
      {errors.name ? <Text className="field__error">{errors.name}</Text> : null}
      <View className="field">
        <Text className="field__label">证件类型</Text>
        <Picker
          mode="selector"
          range={ID_TYPE_OPTIONS.map((o) => o.label)}
          value={ID_TYPE_OPTIONS.findIndex((o) => o.value === value.idType)}
          onChange={(e) => onChange({ idType: ID_TYPE_OPTIONS[Number(e.detail.value)]!.value })}
        >
          <Text className="field__picker">{ID_TYPE_LABELS[value.idType]} ▾</Text>
        </Picker>
      </View>
      <View className="field">
        <Text className="field__label">证件号码</Text>
        <Input
          className="field__input"
          data-testid="attendee-id"
          placeholder="请输入证件号码"
          value={value.idNumber}
          maxlength={32}
          type={value.idType === 'id_card' ? 'idcard' : 'text'}
          onInput={(e) => onChange({ idNumber: e.detail.value })}
        />
      </View>
      {errors.idNumber ? <Text className="field__error">{errors.idNumber}</Text> : null}
    </View>
  );
}
