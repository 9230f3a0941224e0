import type { ReactNode } from 'react';
import { Form, Modal, type FormInstance, type ModalProps } from 'antd';

interface FormModalProps<V> extends Pick<ModalProps, 'title' | 'open' | 'okText' | 'afterOpenChange'> {
  form: FormInstance<V>;
  onClose: () => void;
  onFinish: (values: V) => unknown;
  initialValues?: Partial<V>;
  /** Shown above the form (what the action will do). */
  intro?: ReactNode;
  children: ReactNode;
}

/**
 * A dialog around a vertical form: OK submits the form (so its rules run first) and the fields are
 * dropped once it closes, so the next opening starts clean.
 */
export function FormModal<V>({
  form,
  onClose,
  onFinish,
  initialValues,
  intro,
  children,
  ...modal
}: FormModalProps<V>) {
  return (
    <Modal {...modal} onCancel={onClose} onOk={() => form.submit()} destroyOnHidden>
      {intro}
      <Form form={form} layout="vertical" onFinish={onFinish} initialValues={initialValues}>
        {children}
      </Form>
    </Modal>
  );
}
