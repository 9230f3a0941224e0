import type { CSSProperties, ReactNode } from 'react';
import { Button } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';

/** A form list row's delete: a red bin icon, named for screen readers by `label`. */
export function RemoveRowButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <Button type="text" danger icon={<DeleteOutlined />} onClick={onClick} aria-label={label} />;
}

/** A form list's "添加…" below its rows: dashed, with a plus. */
export function AddRowButton(p: {
  onClick: () => void;
  block?: boolean;
  style?: CSSProperties;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Button
      type="dashed"
      block={p.block}
      icon={<PlusOutlined />}
      onClick={p.onClick}
      style={p.style}
      data-testid={p.testId}
    >
      {p.children}
    </Button>
  );
}
