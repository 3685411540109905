// One prize: its pictures, description, variants, price and stock; Redeem asks to confirm the
// cost (and, for a physical prize, where to send it) before anything moves, and then shows the
// digital prize's code or where the physical one goes.
import { useState } from 'preact/hooks';
import type { ResultOf } from 'gql.tada';
import { Product, Redeem } from '../documents';
import { formatNumber, t } from '../i18n';
import { AddressChooser, type Delivery } from './address';
import { useAction, useQuery } from './hooks';
import { Coins, Dialog, Failure, Loading } from './ui';

type Order = ResultOf<typeof Redeem>['redeemPrize']['order'];

export function ProductPage(props: {
  id: string;
  coinName: string;
  balance: number;
  onBalance: (balance: number) => void;
}) {
  const { data, error } = useQuery(Product, { id: props.id });
  const [variantIndex, setVariantIndex] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [delivery, setDelivery] = useState<Delivery | null>(null);
  const [done, setDone] = useState<Order | null>(null);
  const redeem = useAction(Redeem);

  if (error) return <Failure error={error} />;
  if (!data) return <Loading />;
  const product = data.marketplace.product;
  const saved = data.marketplace.addresses;
  const variant = product.variants[variantIndex] ?? product.variants[0]!;
  const physical = product.kind === 'physical';
  const short = variant.coinPrice - props.balance;
  const price = `${formatNumber(variant.coinPrice)} ${props.coinName}`;

  const open = () => {
    redeem.reset();
    setDelivery(physical && saved[0] ? { addressId: saved[0].id } : null);
    setConfirming(true);
  };
  const confirm = async () => {
    const result = await redeem.act({
      listingId: variant.listingId,
      ...(physical ? (delivery ?? {}) : {}),
    });
    if (!result) return;
    props.onBalance(result.redeemPrize.balance);
    setConfirming(false);
    setDone(result.redeemPrize.order);
  };

  return (
    <article class="product-page" aria-labelledby="product-title">
      <a href="#/shop" class="back">
        ← {t('back')}
      </a>
      <div class="product-layout">
        <div class="gallery">
          {product.images.length ? (
            product.images.map((src, i) => (
              <img key={src} src={src} alt={i === 0 ? t('image', { name: product.name }) : ''} />
            ))
          ) : (
            <div class="placeholder large" aria-hidden="true">
              {product.name.slice(0, 1)}
            </div>
          )}
        </div>
        <div class="details">
          <h1 id="product-title">{product.name}</h1>
          {product.description && <p>{product.description}</p>}
          {product.variants.length > 1 && (
            <fieldset class="variants">
              <legend>{t('option')}</legend>
              {product.variants.map((v, i) => (
                <label key={v.listingId} class="choice">
                  <input
                    type="radio"
                    name="variant"
                    checked={i === variantIndex}
                    onChange={() => setVariantIndex(i)}
                  />
                  {v.label || product.name} · <Coins n={v.coinPrice} coinName={props.coinName} />
                </label>
              ))}
            </fieldset>
          )}
          <p class="price big">
            <Coins n={variant.coinPrice} coinName={props.coinName} />
          </p>
          <p class="muted">
            {variant.available > 0
              ? t('left', { n: formatNumber(variant.available) })
              : t('outOfStock')}
          </p>
          {short > 0 && variant.available > 0 && (
            <p class="muted">{t('notEnough', { n: `${formatNumber(short)} ${props.coinName}` })}</p>
          )}
          {!done && (
            <button
              type="button"
              class="primary wide"
              disabled={variant.available <= 0 || short > 0}
              onClick={open}
            >
              {t('redeem')}
            </button>
          )}
          {done && <Redeemed order={done} />}
        </div>
      </div>
      <Dialog
        title={t('confirmRedeem', { name: product.name, price })}
        open={confirming}
        onClose={() => setConfirming(false)}
      >
        <p>
          {t('balanceAfter', {
            n: `${formatNumber(props.balance - variant.coinPrice)} ${props.coinName}`,
          })}
        </p>
        {physical && <AddressChooser saved={saved} onChange={setDelivery} />}
        <Failure error={redeem.error} />
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            {t('cancel')}
          </button>
          <button
            type="button"
            class="primary"
            disabled={redeem.busy || (physical && !delivery)}
            onClick={() => void confirm()}
          >
            {t('confirm')}
          </button>
        </div>
      </Dialog>
    </article>
  );
}

/** What the player got: the codes of a digital prize, or where the physical one goes. */
function Redeemed(props: { order: Order }) {
  const [copied, setCopied] = useState<string | null>(null);
  const codes = props.order.items.flatMap((i) => i.codes);
  return (
    <div class="done" role="status">
      <p class="strong">{t('redeemed', { name: props.order.items[0]?.name ?? '' })}</p>
      {codes.map((code) => (
        <div key={code} class="code">
          <span class="muted">{t('yourCode')}</span>
          {/^https:\/\//.test(code) ? (
            <a href={code} target="_blank" rel="noopener noreferrer" data-testid="code">
              {code}
            </a>
          ) : (
            <code data-testid="code">{code}</code>
          )}
          <button
            type="button"
            class="secondary small"
            onClick={() => void navigator.clipboard?.writeText(code).then(() => setCopied(code))}
          >
            {copied === code ? t('copied') : t('copy')}
          </button>
        </div>
      ))}
      {props.order.shippingAddress && (
        <p>{t('shipsTo', { address: props.order.shippingAddress })}</p>
      )}
      <a href="#/prizes">{t('seePrizes')}</a>
    </div>
  );
}
