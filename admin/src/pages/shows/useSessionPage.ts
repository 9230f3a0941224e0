import { useEffect, useMemo, useState } from 'react';
import { App, Form } from 'antd';
import { useNavigate, useParams } from 'react-router-dom';
import type { SeatMap } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { createSession, putTiers, sessionSeatMap, updateSession } from '../../api/sessions';
import { useApi } from '../../api/useApi';
import { initialState, problems, stateFromSession, toTierSpecs, type TierState } from './tierModel';
import { draftMap, initialFields, loadSession, sessionBody, type SessionFields } from './sessionModel';

/** State of the session editor: loaded data, tier draft, save and fan preview. */
export function useSessionPage() {
  const { showId, sessionId } = useParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [form] = Form.useForm<SessionFields>();
  const { data, error, reload } = useApi(() => loadSession(showId, sessionId), [showId, sessionId]);
  const [tiers, setTiers] = useState<TierState>();
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState<SeatMap>();
  const s = data?.session;

  useEffect(() => {
    if (!data) return;
    setTiers(s ? stateFromSession(s) : initialState(data.venue));
    form.setFieldsValue(initialFields(s));
  }, [data, s, form]);
  const claimed = useMemo(() => new Set(s?.claimedSeatIds ?? []), [s]);
  const issues = tiers ? problems(tiers) : [];

  const save = async (f: SessionFields) => {
    if (!data || !tiers) return;
    if (issues.length) return void message.error(issues[0]);
    setSaving(true);
    const fields = sessionBody(f);
    try {
      if (!s) {
        const created = await createSession(data.show.id, { ...fields, tiers: toTierSpecs(tiers) });
        message.success('场次已创建');
        navigate(`/sessions/${created.id}`, { replace: true });
      } else {
        await updateSession(s.id, fields);
        await putTiers(s.id, toTierSpecs(tiers));
        message.success('已保存');
        await reload();
      }
    } catch (e) {
      message.error(errorText(e, '保存失败'));
    } finally {
      setSaving(false);
    }
  };
  const showPreview = async () => {
    if (!data || !tiers) return;
    setPreview(s ? await sessionSeatMap(s.id) : draftMap(data.venue, tiers));
  };
  const closePreview = () => setPreview(undefined);
  return {
    form,
    data,
    error,
    reload,
    tiers,
    setTiers,
    saving,
    preview,
    claimed,
    issues,
    save,
    showPreview,
    closePreview,
  };
}
