import { Card, Col, Form, Input, InputNumber, Row, Select, Tooltip } from 'antd';
import { sectionLabel, type BlockSpecInput } from '@showtix/shared-types';
import { AddRowButton, RemoveRowButton } from '../../components/FormListButtons';

/** Form values of one block: number lists are typed as tags. */
export interface BlockForm extends Omit<BlockSpecInput, 'gaps' | 'aisles' | 'rowAisles'> {
  gaps?: string[];
  aisles?: string[];
  rowAisles?: string[];
}

const nums = (v: string[] | undefined) => (v ?? []).map(Number).filter((n) => Number.isInteger(n) && n > 0);

export function toBlockSpec(b: BlockForm): BlockSpecInput {
  return {
    ...b,
    section: (b.section ?? '').trim(),
    gaps: nums(b.gaps),
    aisles: nums(b.aisles),
    rowAisles: nums(b.rowAisles),
  };
}

export function newBlock(index: number, previous?: BlockForm): BlockForm {
  const section = String.fromCharCode(65 + (index % 26));
  const originX = previous ? (previous.originX ?? 0) + ((previous.seatsPerRow ?? 10) + 4) * 10 : 0;
  return {
    section,
    rows: 10,
    seatsPerRow: 20,
    originX,
    originY: previous?.originY ?? 0,
    curve: 0,
    widenPerRow: 0,
    rowLabels: 'number',
    firstRow: 1,
    numbering: 'ltr',
    gaps: [],
    aisles: [],
    rowAisles: [],
  };
}

const tags = {
  mode: 'tags' as const,
  tokenSeparators: [',', '，', ' '],
  open: false,
  placeholder: '如 5,10',
  style: { width: '100%' },
};

/** The number inputs of a block, in the order they are laid out; `testId` names them for the e2e. */
const NUMBER_FIELDS: {
  name: keyof BlockForm;
  label: string;
  tooltip?: string;
  min?: number;
  max?: number;
  required?: boolean;
  testId?: string;
}[] = [
  { name: 'rows', label: '排数', min: 1, max: 200, required: true, testId: 'rows' },
  { name: 'seatsPerRow', label: '每排座位', min: 1, max: 300, required: true, testId: 'seats' },
  { name: 'widenPerRow', label: '每排递增', tooltip: '扇形区：后一排比前一排多几个座位', min: 0, max: 10 },
  { name: 'originX', label: '位置 X', tooltip: '区块左上角，一个座位宽 10', testId: 'x' },
  { name: 'originY', label: '位置 Y', tooltip: '越大离舞台越远', testId: 'y' },
  {
    name: 'curve',
    label: '弧度',
    tooltip: '两端向舞台弯曲的距离，0 为直排',
    min: 0,
    max: 2000,
    testId: 'curve',
  },
  { name: 'firstRow', label: '起始排号', min: 1, max: 999 },
];

/** The number lists, typed as tags. */
const LIST_FIELDS: {
  name: 'aisles' | 'rowAisles' | 'gaps';
  label: string;
  tooltip: string;
  testId?: string;
}[] = [
  { name: 'aisles', label: '纵向过道', tooltip: '在这些座号之后留出过道', testId: 'aisles' },
  { name: 'rowAisles', label: '横向过道', tooltip: '在这些排之后留出过道' },
  { name: 'gaps', label: '空位', tooltip: '每排这些位置没有座位（立柱、机位）' },
];

/** How a block's rows are labelled and its seats numbered. */
const CHOICE_FIELDS: {
  name: 'rowLabels' | 'numbering';
  label: string;
  options: { value: string; label: string }[];
}[] = [
  {
    name: 'rowLabels',
    label: '排号样式',
    options: [
      { value: 'number', label: '数字（1排、2排）' },
      { value: 'letter', label: '字母（A排、B排）' },
    ],
  },
  {
    name: 'numbering',
    label: '座号顺序',
    options: [
      { value: 'ltr', label: '从左到右' },
      { value: 'rtl', label: '从右到左' },
      { value: 'odd-even', label: '单双号（中间 1 号，右单左双）' },
    ],
  },
];

/** One block's fields: section name, the numbers, the lists and the choices. */
function BlockFields({ name, i }: { name: number; i: number }) {
  return (
    <Row gutter={12}>
      <Col span={6}>
        <Form.Item name={[name, 'section']} label="区名" rules={[{ required: true, message: '必填' }]}>
          <Input placeholder="A" data-testid={`block-${i}-section`} />
        </Form.Item>
      </Col>
      {NUMBER_FIELDS.map((n) => (
        <Col span={6} key={n.name}>
          <Form.Item
            name={[name, n.name]}
            label={n.label}
            tooltip={n.tooltip}
            rules={[
              ...(n.required ? [{ required: true, message: '必填' }] : []),
              // Every block number is whole (the API refuses 12.5 rows or a 0.5 弧度).
              { type: 'integer', message: '请输入整数' },
            ]}
          >
            <InputNumber
              min={n.min}
              max={n.max}
              style={{ width: '100%' }}
              data-testid={n.testId && `block-${i}-${n.testId}`}
            />
          </Form.Item>
        </Col>
      ))}
      {LIST_FIELDS.map((l) => (
        <Col span={8} key={l.name}>
          <Form.Item name={[name, l.name]} label={l.label} tooltip={l.tooltip}>
            <Select {...tags} data-testid={l.testId && `block-${i}-${l.testId}`} />
          </Form.Item>
        </Col>
      ))}
      {CHOICE_FIELDS.map((c) => (
        <Col span={12} key={c.name}>
          <Form.Item name={[name, c.name]} label={c.label}>
            <Select options={c.options} />
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}

/** One block in a card titled with its number and section, with a remove button. */
function BlockCard({ name, i, remove }: { name: number; i: number; remove: (name: number) => void }) {
  const form = Form.useFormInstance();
  return (
    <Card
      size="small"
      style={{ marginBottom: 12 }}
      title={
        <Form.Item noStyle shouldUpdate>
          {() => {
            const section = String(form.getFieldValue(['blocks', name, 'section']) ?? '');
            return `区块 ${i + 1}：${section ? sectionLabel(section) : '未命名'}`;
          }}
        </Form.Item>
      }
      extra={
        <Tooltip title="删除区块">
          <RemoveRowButton label={`删除区块 ${i + 1}`} onClick={() => remove(name)} />
        </Tooltip>
      }
    >
      <BlockFields name={name} i={i} />
    </Card>
  );
}

/** The generator's blocks: each a grid of rows and seats with aisles, gaps and curvature. */
export function BlockEditor() {
  const form = Form.useFormInstance();
  return (
    <Form.List name="blocks">
      {(fields, { add, remove }) => (
        <>
          {fields.map((f, i) => (
            <BlockCard key={f.key} name={f.name} i={i} remove={remove} />
          ))}
          <AddRowButton
            block
            onClick={() => add(newBlock(fields.length, form.getFieldValue(['blocks', fields.length - 1])))}
            testId="add-block"
          >
            添加区块
          </AddRowButton>
        </>
      )}
    </Form.List>
  );
}
