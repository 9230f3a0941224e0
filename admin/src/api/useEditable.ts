import { useState } from 'react';
import { Form } from 'antd';
import { useApi } from './useApi';
import { useSaveForm } from './useSaveForm';

/**
 * A detail page's record and its edit form (a modal or a drawer): `edit()` opens the form filled
 * with the record, `save(values)` sends them through `update`, says 已保存, closes the form and
 * reloads the record; a refusal leaves the form open (useSaveForm).
 */
export function useEditable<T extends object, V>(
  load: () => Promise<T>,
  deps: unknown[],
  update: (values: V) => Promise<unknown>,
) {
  const loaded = useApi(load, deps);
  const saveForm = useSaveForm();
  const [editing, setEditing] = useState(false);
  const [form] = Form.useForm<V>();
  const close = () => setEditing(false);
  return {
    ...loaded,
    form,
    editing,
    close,
    edit: () => {
      form.setFieldsValue(loaded.data as Parameters<typeof form.setFieldsValue>[0]);
      setEditing(true);
    },
    save: (values: V) => saveForm(() => update(values), { done: '已保存', close, reload: loaded.reload }),
  };
}
