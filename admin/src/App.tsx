import { Spin } from 'antd';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useAuth } from './auth/AuthContext';
import { AppLayout } from './layout/AppLayout';
import { LoginPage } from './pages/LoginPage';
import { DashboardPage } from './pages/dashboard/DashboardPage';
import { VenueListPage } from './pages/venues/VenueListPage';
import { VenueBuilderPage } from './pages/venues/VenueBuilderPage';
import { VenueDetailPage } from './pages/venues/VenueDetailPage';
import { ShowListPage } from './pages/shows/ShowListPage';
import { ShowDetailPage } from './pages/shows/ShowDetailPage';
import { SessionPage } from './pages/shows/SessionPage';
import { OrderListPage } from './pages/orders/OrderListPage';
import { StaffPage } from './pages/staff/StaffPage';
import { AuditPage } from './pages/audit/AuditPage';
import { AdminsPage } from './pages/admins/AdminsPage';
import { RiskPage } from './pages/risk/RiskPage';
import { DegradePage } from './pages/degrade/DegradePage';
import { OpsPage } from './pages/ops/OpsPage';
import { ReportsPage } from './pages/reports/ReportsPage';

export function App() {
  const { admin, checking, can } = useAuth();
  if (checking) return <Spin fullscreen tip="加载中…" />;
  if (!admin) {
    return (
      <Routes>
        <Route path="*" element={<LoginPage />} />
      </Routes>
    );
  }
  const home = can('operator') ? '/dashboard' : '/staff';
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<Navigate to={home} replace />} />
        <Route path="dashboard" element={<DashboardPage />} />
        <Route path="dashboard/:sessionId" element={<DashboardPage />} />
        <Route path="venues" element={<VenueListPage />} />
        <Route path="venues/new" element={<VenueBuilderPage />} />
        <Route path="venues/:venueId" element={<VenueDetailPage />} />
        <Route path="venues/:venueId/layout" element={<VenueBuilderPage />} />
        <Route path="shows" element={<ShowListPage />} />
        <Route path="shows/:showId" element={<ShowDetailPage />} />
        <Route path="shows/:showId/sessions/new" element={<SessionPage />} />
        <Route path="sessions/:sessionId" element={<SessionPage />} />
        <Route path="orders" element={<OrderListPage />} />
        <Route path="reports" element={<ReportsPage />} />
        <Route path="staff" element={<StaffPage />} />
        <Route path="audit" element={<AuditPage />} />
        <Route path="risk" element={<RiskPage />} />
        <Route path="degrade" element={<DegradePage />} />
        <Route path="ops" element={<OpsPage />} />
        <Route path="admins" element={<AdminsPage />} />
        <Route path="*" element={<Navigate to={home} replace />} />
      </Route>
    </Routes>
  );
}
