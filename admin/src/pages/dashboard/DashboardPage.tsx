import { useEffect } from 'react';
import { Alert, Card, Empty } from 'antd';
import { useNavigate, useParams } from 'react-router-dom';
import { liveSessions, sessionSeatMap } from '../../api/sessions';
import { useApi } from '../../api/useApi';
import { defaultSession, lastChosen } from './defaultSession';
import { DashboardHeader, LiveRow, SalesCharts, StatRow } from './parts';
import { useChartOptions, useLive, useSeatColors } from './useLive';

export function DashboardPage() {
  const { sessionId } = useParams();
  const navigate = useNavigate();
  const sessions = useApi(() => liveSessions(), []);
  useEffect(() => {
    const open = defaultSession(sessions.data?.items ?? [], Date.now(), lastChosen.get());
    if (!sessionId && open) navigate(`/dashboard/${open}`, { replace: true });
  }, [sessionId, sessions.data, navigate]);
  useEffect(() => {
    if (sessionId) lastChosen.set(sessionId);
  }, [sessionId]);
  const { data: d, error } = useLive(sessionId);
  const map = useApi(() => (sessionId ? sessionSeatMap(sessionId) : Promise.resolve(undefined)), [sessionId]);
  const options = useChartOptions(d);
  const { heldSeat, colorOf } = useSeatColors(map.data, d);
  const header = (
    <DashboardHeader
      d={d}
      sessionId={sessionId}
      sessions={sessions.data}
      loading={sessions.loading}
      onPick={(id) => navigate(`/dashboard/${id}`)}
    />
  );
  if (!sessionId)
    return (
      <>
        {header}
        <Card>
          <Empty description={sessions.loading ? '加载中…' : '暂无进行中的场次'} />
        </Card>
      </>
    );
  return (
    <>
      {header}
      {error && <Alert type="error" showIcon title={error.message} style={{ marginBottom: 16 }} />}
      {d && options && (
        <>
          <StatRow d={d} heldSeat={heldSeat} />
          <SalesCharts d={d} options={options} />
          <LiveRow options={options} map={map.data} colorOf={colorOf} heldSeat={heldSeat} />
        </>
      )}
    </>
  );
}
