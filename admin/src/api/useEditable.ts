import { useState } from 'react';
import { Form } from 'antd';
import { useParams } from 'react-router-dom';
import { useApi } from './useApi';
import { useSaveForm } from './useSaveForm';

/**
 * A detail page's record, the one whose id the route holds under `param`, and its edit form (a
 * modal or a drawer): `edit()` opens the form filled with the record, `save(values)` sends them
 * through `update`, says 已保存, closes the form and reloads the record; a refusal leaves the form
 * open (useSaveForm).
 */
export function useEditable<T extends object, V>(
  param: string,
  get: (id: string) => Promise<T>,
  update: (id: string, values: V) => Promise<unknown>,
) {
  const id = useParams()[param]!;
  const loaded = useApi(() => get(id), [id]);
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
    save: (values: V) => saveForm(() => update(id, values), { done: '已保存', close, reload: loaded.reload }),
  };
}
