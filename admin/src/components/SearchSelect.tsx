import { Select, type SelectProps } from 'antd';

/** Typing filters the options by their label. */
const BY_LABEL = { optionFilterProp: 'label' } as const;

/**
 * A picker whose options are found by typing part of their label; `name` labels it for screen
 * readers where no form label does.
 */
export function SearchSelect({ name, ...select }: SelectProps & { name?: string }) {
  return <Select showSearch={BY_LABEL} aria-label={name} {...select} />;
}
