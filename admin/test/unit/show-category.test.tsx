import { describe, expect, it, vi, beforeEach } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp, Button, Form } from 'antd';
import { SHOW_CATEGORIES, SHOW_CATEGORY_LABEL } from '@showtix/shared-types';
import { ShowForm, type ShowFormValues } from '../../src/pages/shows/ShowForm';

// The show form's category select (issue 17 #13): the fixed list, sent as the short code.
const venues = () =>
  Promise.resolve(
    new Response(JSON.stringify({ items: [{ id: '1', name: '国家大剧院', seatCount: 20, zoneCount: 0 }] }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    }),
  );

function Harness({ initial, onFinish }: { initial: ShowFormValues; onFinish: (v: ShowFormValues) => void }) {
  return (
    <AntApp>
      <Form layout="vertical" initialValues={initial} onFinish={onFinish}>
        <ShowForm />
        <Button htmlType="submit">保存演出</Button>
      </Form>
    </AntApp>
  );
}

describe('show form: category', () => {
  beforeEach(() => {
    vi.restoreAllMocks();
    vi.spyOn(globalThis, 'fetch').mockImplementation(venues);
  });

  it('offers every category by its Chinese label and submits the code picked', async () => {
    const sent: ShowFormValues[] = [];
    render(
      <Harness initial={{ title: '雷雨', venueId: '1', category: 'other' }} onFinish={(v) => sent.push(v)} />,
    );
    const select = await screen.findByLabelText('演出分类');
    fireEvent.mouseDown(select);
    for (const c of SHOW_CATEGORIES.filter((x) => x !== 'other'))
      expect(await screen.findByTitle(SHOW_CATEGORY_LABEL[c])).toBeTruthy();
    fireEvent.click(screen.getByTitle('话剧歌剧'));
    fireEvent.click(screen.getByRole('button', { name: '保存演出' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ title: '雷雨', venueId: '1', category: 'theatre' });
  });

  it('will not submit without a category', async () => {
    const sent: ShowFormValues[] = [];
    render(<Harness initial={{ title: '雷雨', venueId: '1' }} onFinish={(v) => sent.push(v)} />);
    fireEvent.click(await screen.findByRole('button', { name: '保存演出' }));
    expect(await screen.findByText('请选择演出分类')).toBeTruthy();
    expect(sent).toHaveLength(0);
  });
});
