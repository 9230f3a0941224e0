import { Button, Drawer, Form, Space, type FormInstance } from 'antd';
import { ShowForm, type ShowFormValues } from './ShowForm';

interface Props {
  title: string;
  okText: string;
  open: boolean;
  close: () => void;
  form: FormInstance<ShowFormValues>;
  onFinish: (v: ShowFormValues) => void;
  saving?: boolean;
  okTestId?: string;
  initialValues?: Partial<ShowFormValues>;
  venueLocked?: boolean;
}

/** The show form in a drawer with 取消 / OK at the top (新建演出 and 编辑演出). */
export function ShowFormDrawer(p: Props) {
  return (
    <Drawer
      title={p.title}
      size={560}
      open={p.open}
      onClose={p.close}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={p.close}>取消</Button>
          <Button type="primary" loading={p.saving} onClick={() => p.form.submit()} data-testid={p.okTestId}>
            {p.okText}
          </Button>
        </Space>
      }
    >
      <Form form={p.form} layout="vertical" onFinish={p.onFinish} initialValues={p.initialValues}>
        <ShowForm venueLocked={p.venueLocked} />
      </Form>
    </Drawer>
  );
}
