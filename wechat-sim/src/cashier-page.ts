/** HTML of the simulated WeChat Pay cashier (H5 build of the mini-program). Text in zh-CN. */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function yuanText(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/**
 * Adds result=... to the merchant's return URL. Hash-routed H5 apps (#/pages/...) read their
 * query from the fragment, so it goes there when the fragment is a route.
 */
export function withResult(returnUrl: string, result: string): string {
  const url = new URL(returnUrl);
  if (url.hash.startsWith('#/')) {
    const sep = url.hash.includes('?') ? '&' : '?';
    url.hash = `${url.hash}${sep}result=${encodeURIComponent(result)}`;
  } else {
    url.searchParams.set('result', result);
  }
  return url.toString();
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;
background:#ededed;color:#111;min-height:100vh;display:flex;flex-direction:column}
.bar{background:#ededed;text-align:center;padding:14px 0;font-size:17px;font-weight:600;border-bottom:1px solid #ddd}
.bar .logo{color:#07c160;margin-right:6px}
main{flex:1;padding:32px 20px;text-align:center}
.merchant{font-size:16px;color:#333}.desc{font-size:13px;color:#888;margin-top:6px}
.amount{font-size:44px;font-weight:600;margin:20px 0 28px}.amount small{font-size:26px;margin-right:4px}
.info{background:#fff;border-radius:8px;text-align:left;padding:4px 16px;margin-bottom:32px;font-size:14px}
.info div{display:flex;justify-content:space-between;padding:10px 0;border-bottom:1px solid #f0f0f0}
.info div:last-child{border-bottom:0}.info span:first-child{color:#888}
button,.btn{display:block;width:100%;padding:13px 0;font-size:17px;border:0;border-radius:8px;margin-top:12px;
text-decoration:none;text-align:center;cursor:pointer}
.primary{background:#07c160;color:#fff}.secondary{background:#f2f2f2;color:#07c160}
.status{font-size:20px;margin:40px 0 12px}.status.closed{color:#fa5151}.status.paid{color:#07c160}
footer{text-align:center;font-size:12px;color:#aaa;padding:16px}
form{margin:0}`;

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,maximum-scale=1,user-scalable=no">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="bar"><span class="logo">●</span>微信支付</header>
<main>
${content}
</main>
<footer>本地微信支付模拟器 · 仅用于开发与测试，不会产生真实扣款</footer>
</body>
</html>`;
}

export interface CashierView {
  merchantName: string;
  description: string;
  totalFen: number;
  outTradeNo: string;
  /** The wx.requestPayment parameters, posted again on confirm (and checked again there). */
  params: Record<string, string | undefined>;
  returnUrl?: string;
}

function hidden(v: CashierView): string {
  const fields: Array<[string, string | undefined]> = [
    ...Object.entries(v.params),
    ['return_url', v.returnUrl],
  ];
  return fields
    .filter((f): f is [string, string] => f[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

function summary(v: CashierView): string {
  return `<div class="merchant" data-testid="cashier-merchant">${escapeHtml(v.merchantName)}</div>
<div class="desc">${escapeHtml(v.description)}</div>
<div class="amount" data-testid="cashier-amount"><small>¥</small>${yuanText(v.totalFen)}</div>`;
}

export function payPage(v: CashierView): string {
  return page(
    '微信支付',
    `${summary(v)}
<div class="info">
<div><span>收款方</span><span>${escapeHtml(v.merchantName)}</span></div>
<div><span>商户订单号</span><span data-testid="cashier-order">${escapeHtml(v.outTradeNo)}</span></div>
<div><span>支付方式</span><span>零钱</span></div>
</div>
<form method="post" action="/sim/cashier/confirm">${hidden(v)}
<button type="submit" class="primary" data-testid="cashier-confirm">确认支付</button>
</form>
<form method="post" action="/sim/cashier/cancel">${hidden(v)}
<button type="submit" class="secondary" data-testid="cashier-cancel">取消</button>
</form>`,
  );
}

/** Closed, expired or already paid: nothing to pay; offer the way back. */
export function statusPage(kind: 'closed' | 'paid', v: CashierView | null, backUrl?: string): string {
  const text = kind === 'closed' ? '订单已关闭' : '订单已支付';
  const back = backUrl
    ? `<a class="btn secondary" data-testid="cashier-back" href="${escapeHtml(backUrl)}">返回商户</a>`
    : '';
  return page(
    text,
    `${v ? summary(v) : ''}
<div class="status ${kind}" data-testid="cashier-status">${text}</div>
${back}`,
  );
}

/** A refusal (or a plain message); `code` is the simulator's error code, for tests. */
export function messagePage(text: string, code?: string, backUrl?: string): string {
  const codeAttr = code ? ` data-code="${escapeHtml(code)}"` : '';
  const back = backUrl
    ? `<a class="btn secondary" data-testid="cashier-back" href="${escapeHtml(backUrl)}">返回商户</a>`
    : '';
  return page(
    text,
    `<div class="status closed" data-testid="cashier-status"${codeAttr}>${escapeHtml(text)}</div>
${back}`,
  );
}

export function donePage(text: string): string {
  return page(text, `<div class="status paid" data-testid="cashier-status">${escapeHtml(text)}</div>`);
}
