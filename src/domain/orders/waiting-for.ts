// Why an order waits, for whoever follows it (issue 32: an agent read `pending` and could not
// tell whether anyone had to act): null once it is delivered or cancelled.

export const WAITING_FOR = [
  'prepaid_balance',
  'shipping_address',
  'fulfilment',
  'delivery',
] as const;
export type WaitingFor = (typeof WAITING_FOR)[number];

export function waitingFor(order: {
  status: string;
  billingStatus: string;
  shippingAddress: string | null;
  items: { kind: string }[];
}): WaitingFor | null {
  if (order.status === 'delivered' || order.status === 'cancelled') return null;
  if (order.status === 'shipped') return 'delivery';
  if (order.billingStatus === 'blocked_balance') return 'prepaid_balance';
  const physical = order.items.some((item) => item.kind === 'physical');
  return physical && !order.shippingAddress ? 'shipping_address' : 'fulfilment';
}
