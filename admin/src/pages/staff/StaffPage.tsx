import { useState } from 'react';
import { Card, Tabs } from 'antd';
import { listShows } from '../../api/shows';
import { useApi } from '../../api/useApi';
import { GateTab } from './GateTab';
import { InviteTab } from './InviteTab';
import { StaffTab } from './StaffTab';

export function StaffPage() {
  const shows = useApi(() => listShows(), []);
  const showOptions = (shows.data?.items ?? []).map((s) => ({ value: s.id, label: s.title }));
  const [tab, setTab] = useState('staff');
  const [inviting, setInviting] = useState(false);
  const add = () => {
    setTab('invites');
    setInviting(true);
  };
  return (
    <>
      <div className="page-header">
        <h2>检票人员</h2>
      </div>
      <Card>
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            { key: 'staff', label: '检票人员', children: <StaffTab onAdd={add} /> },
            {
              key: 'invites',
              label: '邀请码',
              children: <InviteTab showOptions={showOptions} open={inviting} setOpen={setInviting} />,
            },
            { key: 'gates', label: '各入口检票', children: <GateTab showOptions={showOptions} /> },
          ]}
        />
      </Card>
    </>
  );
}
