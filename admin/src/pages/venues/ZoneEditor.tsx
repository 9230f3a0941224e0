import { Col, Form, Input, InputNumber, Row } from 'antd';
import { AddRowButton, RemoveRowButton } from '../../components/FormListButtons';

/** General-admission (standing) zones: a name and a capacity, no seats. */
export function ZoneEditor() {
  return (
    <Form.List name="zones">
      {(fields, { add, remove }) => (
        <>
          {fields.map((f) => (
            <Row gutter={8} key={f.key} align="top">
              <Col flex="auto">
                <Form.Item name={[f.name, 'name']} rules={[{ required: true, message: '请填写名称' }]}>
                  <Input placeholder="如 内场站席" />
                </Form.Item>
              </Col>
              <Col flex="140px">
                <Form.Item name={[f.name, 'capacity']} rules={[{ required: true, message: '容量' }]}>
                  <InputNumber
                    min={1}
                    max={200000}
                    placeholder="容量"
                    style={{ width: '100%' }}
                    suffix="人"
                  />
                </Form.Item>
              </Col>
              <Col flex="32px">
                <RemoveRowButton label="删除站席区" onClick={() => remove(f.name)} />
              </Col>
            </Row>
          ))}
          <AddRowButton block onClick={() => add({ name: '', capacity: 500 })}>
            添加站席区
          </AddRowButton>
        </>
      )}
    </Form.List>
  );
}
