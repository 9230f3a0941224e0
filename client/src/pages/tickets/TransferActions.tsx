import type { Ticket } from '@showtix/shared-types';
import { Button, Text, View } from '@tarojs/components';
import Taro, { useShareAppMessage } from '@tarojs/taro';
import { errorView } from '../../services/errors';
import { cancelTransfer, offerTransfer, transferShare } from '../../services/transfers';
import { formatDateTime } from '../../utils/time';

const WEAPP = process.env.TARO_ENV === 'weapp';

/**
 * The wallet's share card: a share button of a ticket's offer carries its code and title in its
 * dataset (WeChat passes the button as the share's target); any other share opens the wallet.
 */
export function useTransferShare(): void {
  useShareAppMessage((res) => {
    const d = (res?.target as { dataset?: { code?: string; title?: string } } | undefined)?.dataset;
    if (res?.from === 'button' && d?.code) return transferShare(d.title ?? '', d.code);
    return { title: '秀票', path: '/pages/index/index' };
  });
}

async function confirmed(title: string, content: string): Promise<boolean> {
  return (await Taro.showModal({ title, content })).confirm;
}

/** 转赠: offered from a valid ticket; the offer's share and cancel while it is open. */
export default function TransferActions({ t, onChanged }: { t: Ticket; onChanged: () => void }) {
  const run = async (what: () => Promise<unknown>) => {
    try {
      await what();
      onChanged();
    } catch (e) {
      void Taro.showToast({ title: errorView(e).message, icon: 'none' });
    }
  };
  const offer = async () => {
    const ok = await confirmed(
      '转赠门票',
      '转赠期间此票不能入场、不能退票；好友接收后，原二维码立即失效，门票归好友所有且不支持退票。确定转赠吗？',
    );
    if (ok) await run(() => offerTransfer(t.ticketId));
  };
  const cancel = async () => {
    if (await confirmed('取消转赠', '取消后转赠链接失效，门票恢复可用。'))
      await run(() => cancelTransfer(t.ticketId));
  };
  if (t.status === 'valid' && t.transferable)
    return (
      <Button
        className="btn btn--ghost ticket__transfer"
        data-testid="transfer-btn"
        onClick={() => void offer()}
      >
        转赠
      </Button>
    );
  const o = t.transferOffer;
  if (t.status !== 'transferring' || !o) return null;
  const copy = async () => {
    const link = `${window.location.origin}${window.location.pathname}#${transferShare(t.showTitle, o.code).path}`;
    await Taro.setClipboardData({ data: link });
    void Taro.showToast({ title: '链接已复制，发给好友即可接收', icon: 'none' });
  };
  return (
    <View className="ticket__offer" data-testid="transfer-offer">
      <Text className="ticket__hint">转赠中：等待好友接收，{formatDateTime(o.expiresAt)} 前有效</Text>
      {WEAPP ? (
        <Button
          className="btn btn--primary"
          openType="share"
          data-code={o.code}
          data-title={t.showTitle}
          data-testid="transfer-share"
        >
          分享给好友
        </Button>
      ) : (
        <Button className="btn btn--primary" data-testid="transfer-share" onClick={() => void copy()}>
          复制转赠链接
        </Button>
      )}
      <Button className="btn btn--ghost" data-testid="transfer-cancel" onClick={() => void cancel()}>
        取消转赠
      </Button>
    </View>
  );
}
