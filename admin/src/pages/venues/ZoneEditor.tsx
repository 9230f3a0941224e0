import { Button, Col, Form, Input, InputNumber, Row } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';

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
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(f.name)}
                  aria-label="删除站席区"
                />
              </Col>
            </Row>
          ))}
          <Button
            type="dashed"
            block
            icon={<PlusOutlined />}
            onClick={() => add({ name: '', capacity: 500 })}
          >
            添加站席区
          </Button>
        </>
      )}
    </Form.List>
  );
}
