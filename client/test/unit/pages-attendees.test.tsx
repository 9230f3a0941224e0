import { fireEvent, render, screen } from '@testing-library/react';
import taro from './stubs/taro';
import { loggedInFan, tick } from './fan';
import { ok, serveApi } from './fake-api';
import { ID_A, SAVED } from './fixtures';
import AttendeesPage from '../../src/pages/attendees/index';
import { resetDeviceId } from '../../src/services/device';
import { request } from '../../src/services/http';

const [A, B] = SAVED;
loggedInFan();

it('lists saved attendees masked, adds one, deletes one; the server refusing a duplicate is said in words', async () => {
  let items = [A];
  const sent = serveApi({
    'GET /api/v1/me/attendees': () => ok({ items }),
    'POST /api/v1/me/attendees': ({ data }) =>
      (data as { idNumber: string }).idNumber === ID_A
        ? {
            statusCode: 400,
            data: { error: { code: 'VALIDATION_FAILED', message: '该证件已在常用观演人中' } },
          }
        : ((items = [...items, B]), { statusCode: 201, data: items[1] }),
    'DELETE /api/v1/me/attendees/1': () => (
      (items = items.filter((x) => x.id !== '1')),
      { statusCode: 204, data: '' }
    ),
  });
  render(<AttendeesPage />);
  await tick();
  expect(screen.getAllByTestId('saved-row').map((r) => r.textContent)).toEqual([
    '张*身份证 110***********002X删除',
  ]);
  expect(screen.queryByText(ID_A)).toBeNull();

  fireEvent.click(screen.getByTestId('saved-add'));
  expect(screen.getByText('请填写观演人姓名')).toBeTruthy();
  fireEvent.change(screen.getByTestId('saved-name'), { target: { value: '张三' } });
  fireEvent.change(screen.getByTestId('saved-id'), { target: { value: ID_A.toLowerCase() } });
  fireEvent.click(screen.getByTestId('saved-add'));
  await tick();
  expect(screen.getByTestId('error-panel').textContent).toContain('该证件已在常用观演人中');
  fireEvent.click(screen.getByTestId('error-action'));

  fireEvent.change(screen.getByTestId('saved-name'), { target: { value: '李四' } });
  fireEvent.change(screen.getByTestId('saved-id'), { target: { value: '110105199001011232' } });
  fireEvent.click(screen.getByTestId('saved-add'));
  await tick();
  expect(sent.filter((s) => s.key === 'POST /api/v1/me/attendees')[1]!.data).toEqual({
    name: '李四',
    idType: 'id_card',
    idNumber: '110105199001011232',
  });
  expect(screen.getAllByTestId('saved-row')).toHaveLength(2);

  fireEvent.click(screen.getAllByTestId('saved-delete')[0]!);
  await tick();
  expect(taro.showModal).toHaveBeenCalledWith(
    expect.objectContaining({ content: expect.stringContaining('张*') }),
  );
  expect(screen.getAllByTestId('saved-row').map((r) => r.textContent)).toEqual([
    '李*身份证 110***********1232删除',
  ]);
});

it('every request carries the same random X-Device-Id, kept in storage', async () => {
  resetDeviceId();
  const sent = serveApi({ 'GET /api/v1/shows': ok({ items: [] }) });
  await request('/api/v1/shows');
  await request('/api/v1/shows');
  const id = sent[0]!.header['X-Device-Id'];
  expect(id).toMatch(/^dev-[\w-]{8,60}$/);
  expect(sent[1]!.header['X-Device-Id']).toBe(id);
  expect(taro.getStorageSync('showtix.deviceId')).toBe(id);
});
