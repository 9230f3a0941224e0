import { Text } from '@tarojs/components';

/** The real-name attendee a ticket is bound to (name and masked ID), or nothing on a free seat. */
export default function AttendeeLine(p: {
  attendee?: { name: string; idMasked: string } | null;
  className: string;
  testid: string;
}) {
  if (!p.attendee) return null;
  return (
    <Text className={p.className} data-testid={p.testid}>
      实名观演人 {p.attendee.name} {p.attendee.idMasked}
    </Text>
  );
}
