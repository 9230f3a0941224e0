import { Alert, Typography } from 'antd';
import type { StaffMember } from '@showtix/shared-types';
import { listStaff, removeStaff } from '../../api/staff';
import { useApi } from '../../api/useApi';
import { removeColumn, showsColumn, TabTable } from '../../components/TabTable';
import { dateTime } from '../../utils/format';

/** The gate staff; adding one goes through an invite (the page opens the invite dialog). */
export function StaffTab({ onAdd }: { onAdd: () => void }) {
  const staff = useApi(() => listStaff(), []);
  const remove = async (m: StaffMember) => {
    await removeStaff(m.userId);
    await staff.reload();
  };
  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 8 }}
        title="检票人员通过邀请码加入：生成邀请码发给对方，对方在小程序「我的 › 检票员邀请」中输入即可。"
      />
      <TabTable<StaffMember>
        add={{ label: '添加检票人员', testId: 'add-staff', onClick: onAdd }}
        list={staff}
        rowKey="userId"
        pagination={false}
        columns={[
          {
            title: '微信用户',
            render: (_, m) => (
              <>
                {m.nickname ?? '微信用户'} <Typography.Text type="secondary">ID {m.userId}</Typography.Text>
              </>
            ),
          },
          showsColumn<StaffMember>('负责演出'),
          { title: '加入时间', dataIndex: 'since', render: dateTime },
          removeColumn<StaffMember>('移除', '移除该检票人员？', remove),
        ]}
      />
    </>
  );
}
