import { ScrollView, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import { AttendeeFields } from '../../components/AttendeeForm';
import BusyButton from '../../components/BusyButton';
import { RemedySheet } from '../../components/ErrorPanel';
import { Empty } from '../../components/Loading';
import { FirstLoad } from '../../components/LoadState';
import { useLoad, type Loaded } from '../../hooks/useLoad';
import {
  blankAttendee,
  ID_TYPE_LABELS,
  validateAttendees,
  type AttendeeErrors,
  type AttendeeInput,
} from '../../services/attendees';
import { errorView, type ErrorView } from '../../services/errors';
import { addSaved, listSaved, removeSaved, type Saved } from '../../services/saved-attendees';
import './index.scss';

function Row({ a, onDelete }: { a: Saved; onDelete: () => void }) {
  return (
    <View className="saved-row" data-testid="saved-row">
      <View className="saved-row__main">
        <Text className="saved-row__name">{a.nameMasked}</Text>
        <Text className="saved-row__id">
          {ID_TYPE_LABELS[a.idType]} {a.idMasked}
        </Text>
      </View>
      <Text className="saved-row__delete" data-testid="saved-delete" onClick={onDelete}>
        删除
      </Text>
    </View>
  );
}

async function confirmRemove(a: Saved): Promise<boolean> {
  const ok = await Taro.showModal({
    title: '删除常用观演人',
    content: `确定删除 ${a.nameMasked}（${a.idMasked}）？已购门票不受影响。`,
    confirmText: '删除',
  });
  return ok.confirm;
}

function SavedList({ list, onDelete }: { list: Loaded<Saved[]>; onDelete: (a: Saved) => void }) {
  return (
    <View className="card">
      <Text className="card__title">常用观演人</Text>
      <Text className="card__sub">购买实名制演出时可直接选择；证件信息加密保存，仅显示部分号码</Text>
      <FirstLoad loaded={list} />
      {list.data?.length === 0 ? <Empty text="还没有常用观演人，在下方添加" /> : null}
      {(list.data ?? []).map((a) => (
        <Row key={a.id} a={a} onDelete={() => onDelete(a)} />
      ))}
    </View>
  );
}

/** 常用观演人: the buyer's saved attendees, shown masked; add and delete. */
export default function AttendeesPage() {
  const list = useLoad(listSaved, []);
  const [form, setForm] = useState<AttendeeInput>(blankAttendee);
  const [errors, setErrors] = useState<AttendeeErrors>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorView>();

  const add = async () => {
    const v = validateAttendees([form]);
    setErrors(v.errors[0] ?? {});
    if (!v.ok || busy) return;
    setBusy(true);
    try {
      await addSaved(form);
      setForm(blankAttendee());
      void Taro.showToast({ title: '已保存', icon: 'success' });
      list.reload();
    } catch (e) {
      setError(errorView(e));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (a: Saved) => {
    if (!(await confirmRemove(a))) return;
    try {
      await removeSaved(a.id);
      list.reload();
    } catch (e) {
      setError(errorView(e));
    }
  };
  const edit = (patch: Partial<AttendeeInput>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors({});
  };

  return (
    <View className="page attendees">
      <ScrollView scrollY className="attendees__scroll">
        <SavedList list={list} onDelete={(a) => void remove(a)} />
        <View className="card" data-testid="saved-form">
          <Text className="card__title">添加观演人</Text>
          <AttendeeFields
            value={form}
            errors={errors}
            onChange={edit}
            testids={{ name: 'saved-name', idNumber: 'saved-id' }}
          />
          <BusyButton
            className="btn btn--primary attendees__add"
            testid="saved-add"
            busy={busy}
            onClick={() => void add()}
          >
            保存
          </BusyButton>
        </View>
      </ScrollView>
      <RemedySheet
        error={error}
        dismiss={() => setError(undefined)}
        handlers={{ fix_input: () => undefined, retry: () => void add() }}
        reload={list.reload}
      />
    </View>
  );
}
