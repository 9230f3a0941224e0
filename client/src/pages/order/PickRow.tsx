import { View } from '@tarojs/components';
import { useState, type ReactNode } from 'react';
import Icon from '../../components/icon/Icon';

/** The tickets picked so far (ticket numbers) and a tap that picks or unpicks one. */
export function usePicks(): [string[], (id: string) => void] {
  const [chosen, setChosen] = useState<string[]>([]);
  const toggle = (id: string) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  return [chosen, toggle];
}

/**
 * One row of a picker (tickets to refund or exchange, the session to exchange to): a tick box,
 * then what the row is about.
 */
export function PickRow(p: {
  on: boolean;
  kind: 'checkbox' | 'radio';
  testid: string;
  /** The ticket the row picks (tests find rows by it). */
  ticket?: string;
  onPick: () => void;
  children: ReactNode;
}) {
  return (
    <View
      className={`refund-picker__row${p.on ? ' refund-picker__row--on' : ''}`}
      role={p.kind}
      aria-checked={p.on}
      data-testid={p.testid}
      {...(p.ticket ? { 'data-ticket': p.ticket } : {})}
      onClick={p.onPick}
    >
      <View className="refund-picker__box">
        {p.on ? <Icon name="check" color="white" size="sm" /> : null}
      </View>
      {p.children}
    </View>
  );
}
