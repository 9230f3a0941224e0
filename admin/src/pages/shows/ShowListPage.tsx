import { useState } from 'react';
import { App, Form } from 'antd';
import { useNavigate } from 'react-router-dom';
import type { AdminShowSummary } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { createShow, listShows } from '../../api/shows';
import { useApi } from '../../api/useApi';
import type { ShowFormValues } from './ShowForm';
import { ListPage } from '../../components/PageParts';
import { SHOW_COLUMNS } from './showColumns';
import { ShowFormDrawer } from './ShowFormDrawer';

const NEW_SHOW: Partial<ShowFormValues> = {
  category: 'other',
  refundRules: [
    { hoursBeforeStart: 168, feePercent: 0 },
    { hoursBeforeStart: 48, feePercent: 20 },
  ],
  posterUrl: null,
};

export function ShowListPage() {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<ShowFormValues>();
  const list = useApi(() => listShows(), []);
  const create = async (v: ShowFormValues) => {
    setSaving(true);
    try {
      const show = await createShow(v);
      message.success('演出已创建，接下来添加场次');
      navigate(`/shows/${show.id}`);
    } catch (e) {
      message.error(errorText(e, '保存失败'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <ListPage<AdminShowSummary>
        title="演出与场次"
        add={{ label: '新建演出', testId: 'new-show', onClick: () => (form.resetFields(), setOpen(true)) }}
        list={list}
        columns={SHOW_COLUMNS}
      />
      <ShowFormDrawer
        title="新建演出"
        okText="创建"
        open={open}
        close={() => setOpen(false)}
        form={form}
        onFinish={create}
        saving={saving}
        okTestId="save-show"
        initialValues={NEW_SHOW}
      />
    </>
  );
}
