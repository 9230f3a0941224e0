import { useState } from 'react';
import { App, Button, Drawer, Form, Image, Space, Tag } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { SHOW_CATEGORY_LABEL, type AdminShowSummary } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { createShow, listShows } from '../../api/shows';
import { useApi } from '../../api/useApi';
import { dateTime, SESSION_STATUS } from '../../utils/format';
import { ShowForm, type ShowFormValues } from './ShowForm';
import { ListPage } from '../../components/PageParts';

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
        columns={[
          {
            title: '海报',
            dataIndex: 'posterUrl',
            width: 72,
            render: (u: string | null) =>
              u ? (
                <Image src={u} width={40} height={54} style={{ objectFit: 'cover', borderRadius: 4 }} />
              ) : (
                <div style={{ width: 40, height: 54, background: '#f0f0f0', borderRadius: 4 }} />
              ),
          },
          { title: '演出', dataIndex: 'title', render: (v, r) => <Link to={`/shows/${r.id}`}>{v}</Link> },
          {
            title: '分类',
            dataIndex: 'category',
            width: 110,
            render: (c: AdminShowSummary['category']) => SHOW_CATEGORY_LABEL[c],
          },
          { title: '场馆', dataIndex: 'venueName' },
          { title: '场次', dataIndex: 'sessionCount', width: 70, align: 'right' },
          { title: '首场时间', dataIndex: 'firstStartsAt', width: 160, render: dateTime },
          {
            title: '状态',
            dataIndex: 'statuses',
            render: (s: AdminShowSummary['statuses']) =>
              s.length ? (
                [...new Set(s)].map((x) => (
                  <Tag key={x} color={SESSION_STATUS[x].color}>
                    {SESSION_STATUS[x].label}
                  </Tag>
                ))
              ) : (
                <Tag>未排场</Tag>
              ),
          },
        ]}
      />
      <Drawer
        title="新建演出"
        size={560}
        open={open}
        onClose={() => setOpen(false)}
        destroyOnHidden
        extra={
          <Space>
            <Button onClick={() => setOpen(false)}>取消</Button>
            <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="save-show">
              创建
            </Button>
          </Space>
        }
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={create}
          initialValues={{
            category: 'other',
            refundRules: [
              { hoursBeforeStart: 168, feePercent: 0 },
              { hoursBeforeStart: 48, feePercent: 20 },
            ],
            posterUrl: null,
          }}
        >
          <ShowForm />
        </Form>
      </Drawer>
    </>
  );
}
