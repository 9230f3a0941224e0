import { Button, Text, View } from '@tarojs/components';
import { useState, type ReactNode } from 'react';
import { TextField } from '../../../components/Field';
import { flag } from '../../../utils/flag';
import type { Desk } from './useDesk';

const TICKET_NO = /^T[2-9A-Z]{19}$/;
const ID_LAST4 = /^\d{3}[\dX]$/;
const SPOKEN = /^\d{6}$/;

interface CardProps {
  desk: Desk;
  /** Says what is wrong with the entry (undefined clears it). */
  setHint: (hint: string | undefined) => void;
}

/** The two entry cards' words, and their check buttons' classes and test ids. */
const CARDS = {
  paste: {
    title: '扫码内容',
    sub: '浏览器中无法调用摄像头扫码：请粘贴扫码枪或其他设备读到的二维码内容',
    button: {
      className: 'btn btn--primary desk__go desk__check-qr',
      testid: 'scan-submit',
      label: '核验二维码',
    },
  },
  manual: {
    title: '人工核验',
    sub: '二维码无法识别时：输入票号，并请观众报出票夹中的 6 位人工核验码（实名场次也可核对证件后填证件号后 4 位）。需联网，每次核验都会记录。',
    button: {
      className: 'btn btn--ghost desk__go desk__check-no',
      testid: 'ticket-no-submit',
      label: '核验票号',
    },
  },
};

/** A card of the desk where a code is typed: what to enter, the fields, and the check button. */
function EntryCard(p: {
  card: (typeof CARDS)[keyof typeof CARDS];
  children: ReactNode;
  onCheck: () => void;
  busy: boolean;
}) {
  const { title, sub, button } = p.card;
  return (
    <View className="card">
      <Text className="card__title">{title}</Text>
      <Text className="card__sub">{sub}</Text>
      {p.children}
      <Button
        className={button.className}
        data-testid={button.testid}
        disabled={flag(p.busy)}
        onClick={p.onCheck}
      >
        {button.label}
      </Button>
    </View>
  );
}

/** In a browser (no camera): the QR's content, pasted from a scanner gun or another device. */
export function PasteCard({ desk, setHint }: CardProps) {
  const [qr, setQr] = useState('');
  const check = () => {
    const text = qr.trim();
    if (!text) return setHint('请粘贴或输入二维码内容');
    setHint(undefined);
    setQr('');
    void desk.scan({ qr: text });
  };
  return (
    <EntryCard card={CARDS.paste} onCheck={check} busy={desk.busy}>
      <TextField
        className="desk__qr-input"
        testid="scan-input"
        placeholder="STX3:…"
        value={qr}
        maxlength={1024}
        onInput={setQr}
        onConfirm={check}
      />
    </EntryCard>
  );
}

/** The manual check's two fields: the ticket number, and the holder's second factor. */
const MANUAL_FIELDS = [
  { key: 'ticketNo', testid: 'ticket-no-input', placeholder: 'T 开头的 20 位票号', maxlength: 20 },
  { key: 'factor', testid: 'factor-input', placeholder: '人工核验码 6 位 / 证件号后 4 位', maxlength: 7 },
] as const;

/**
 * Manual entry: the number alone admits no one; the holder's spoken code (6 digits under the QR
 * in their wallet) or, on real-name sessions, the ID's last four characters come with it.
 */
export function ManualCard({ desk, setHint }: CardProps) {
  const [entry, setEntry] = useState({ ticketNo: '', factor: '' });
  const check = () => {
    const no = entry.ticketNo.trim().toUpperCase();
    const f = entry.factor.replace(/\s/g, '').toUpperCase();
    if (!TICKET_NO.test(no)) return setHint('票号格式不正确：T 开头，共 20 位');
    if (!SPOKEN.test(f) && !ID_LAST4.test(f))
      return setHint('请填写观众报出的 6 位人工核验码，或实名场次的证件号后 4 位');
    setHint(undefined);
    setEntry({ ticketNo: '', factor: '' });
    void desk.scan(SPOKEN.test(f) ? { ticketNo: no, spokenCode: f } : { ticketNo: no, idLast4: f });
  };
  return (
    <EntryCard card={CARDS.manual} onCheck={check} busy={desk.busy}>
      {MANUAL_FIELDS.map((f) => (
        <TextField
          key={f.key}
          className="desk__no-input"
          testid={f.testid}
          placeholder={f.placeholder}
          value={entry[f.key]}
          maxlength={f.maxlength}
          onInput={(v) => setEntry((e) => ({ ...e, [f.key]: v }))}
        />
      ))}
    </EntryCard>
  );
}
