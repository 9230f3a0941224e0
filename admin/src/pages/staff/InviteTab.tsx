import { Tag, Typography } from 'antd';
import type { StaffInvite } from '@showtix/shared-types';
import { listInvites, revokeInvite } from '../../api/staff';
import { useApi } from '../../api/useApi';
import { removeColumn, showsColumn, TabTable } from '../../components/TabTable';
import { dateTime } from '../../utils/format';
import { InviteModal } from './InviteModal';
import type { ShowOptions } from './showOptions';

interface InviteTabProps {
  showOptions: ShowOptions;
  /** The "generate" dialog; the staff tab's add button opens it too. */
  open: boolean;
  setOpen: (open: boolean) => void;
}

/** An invite's state: revoked, expired, used up, else valid. */
function inviteState(i: StaffInvite) {
  if (i.revoked) return <Tag>已作废</Tag>;
  if (Date.parse(i.expiresAt) < Date.now()) return <Tag>已过期</Tag>;
  if (i.uses >= i.maxUses) return <Tag>已用完</Tag>;
  return <Tag color="green">有效</Tag>;
}

/**
 * Staff join by invite only: the organiser picks the shows, sends the code, and the person enters it
 * in the mini-program (nobody can see a fan's user ID, and every nickname is 微信用户).
 */
export function InviteTab({ showOptions, open, setOpen }: InviteTabProps) {
  const invites = useApi(() => listInvites(), []);
  const revoke = async (i: StaffInvite) => {
    await revokeInvite(i.code);
    await invites.reload();
  };
  return (
    <>
      <TabTable<StaffInvite>
        add={{ label: '生成邀请码', onClick: () => setOpen(true) }}
        list={invites}
        rowKey="code"
        pagination={false}
        columns={[
          {
            title: '邀请码',
            dataIndex: 'code',
            render: (c: string) => (
              <Typography.Text copyable style={{ fontFamily: 'monospace', fontSize: 15 }}>
                {c}
              </Typography.Text>
            ),
          },
          showsColumn<StaffInvite>('演出'),
          { title: '已用 / 上限', render: (_, i) => `${i.uses} / ${i.maxUses}` },
          { title: '备注', dataIndex: 'note' },
          { title: '有效期至', dataIndex: 'expiresAt', render: dateTime },
          { title: '状态', render: (_, i) => inviteState(i) },
          removeColumn<StaffInvite>('作废', '作废该邀请码？', revoke, (i) => !i.revoked),
        ]}
      />
      <InviteModal showOptions={showOptions} open={open} setOpen={setOpen} created={invites.reload} />
    </>
  );
}
