import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useAuth } from '../auth/AuthContext';
import { errorText } from '../api/client';

export function LoginPage() {
  const { login } = useAuth();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (v: { username: string; password: string }) => {
    setBusy(true);
    setError(undefined);
    try {
      await login(v.username.trim(), v.password);
    } catch (e) {
      setError(errorText(e, '登录失败，请稍后再试'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="login-page">
      <Card className="login-card">
        <Typography.Title level={3} style={{ textAlign: 'center', marginTop: 0 }}>
          演出票务管理后台
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          主办方与现场运营使用
        </Typography.Paragraph>
        {error && (
          <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} data-testid="login-error" />
        )}
        <Form layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="username" label="用户名" rules={[{ required: true, message: '请输入用户名' }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" size="large" />
          </Form.Item>
          <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={busy}>
            登录
          </Button>
        </Form>
      </Card>
    </div>
  );
}
