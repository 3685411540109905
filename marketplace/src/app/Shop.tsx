// The shop: search, categories, "only what I can afford", and the grid of prizes, 24 at a time.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ResultOf } from 'gql.tada';
import { run, takePreloaded, type ApiError } from '../api';
import { Products } from '../documents';
import { formatNumber, t } from '../i18n';
import { Failure } from './ui';

type Item = ResultOf<typeof Products>['marketplace']['products']['items'][number];
const PAGE = 24;

export function Shop(props: {
  coinName: string;
  categories: { id: string; name: string }[];
  balance: number;
}) {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [affordable, setAffordable] = useState(false);
  // The first page, when the page came with it (the server ran it): shown in the first render.
  const [first] = useState(
    () =>
      takePreloaded(Products, { q: null, categoryId: null, affordable: null, first: PAGE })
        ?.marketplace.products ?? null,
  );
  const [items, setItems] = useState<Item[] | null>(first?.items ?? null);
  const [total, setTotal] = useState(first?.total ?? 0);
  const [next, setNext] = useState<string | null>(first?.nextCursor ?? null);
  const skip = useRef(first !== null);
  const [error, setError] = useState<ApiError | null>(null);

  // The search goes out once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setQuery(q.trim()), 250);
    return () => clearTimeout(timer);
  }, [q]);

  const filters = { q: query || null, categoryId, affordable: affordable || null };
  const filterKey = JSON.stringify(filters);
  // The balance changes what "affordable" passes.
  const balanceKey = affordable ? props.balance : null;
  useEffect(() => {
    if (skip.current) return void (skip.current = false); // the preloaded page is this one
    let live = true;
    run(Products, { ...JSON.parse(filterKey), first: PAGE }).then(
      (d) => {
        if (!live) return;
        setItems(d.marketplace.products.items);
        setTotal(d.marketplace.products.total);
        setNext(d.marketplace.products.nextCursor);
      },
      (e: ApiError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [filterKey, balanceKey]);

  // When the first prizes are on screen (User Timing: the browser suite reads it).
  const shown = items !== null && items.length > 0;
  useEffect(() => {
    if (shown && !performance.getEntriesByName('shop-grid').length) performance.mark('shop-grid');
  }, [shown]);

  const more = async () => {
    const d = await run(Products, { ...filters, first: PAGE, after: next }).catch((e: ApiError) => {
      setError(e);
      return null;
    });
    if (!d) return;
    setItems([...(items ?? []), ...d.marketplace.products.items]);
    setNext(d.marketplace.products.nextCursor);
  };

  return (
    <section aria-labelledby="shop-title">
      <h1 id="shop-title" class="visually-hidden">
        {t('shop')}
      </h1>
      <div class="filters">
        <label class="field search">
          <span>{t('search')}</span>
          <input type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        </label>
        {props.categories.length > 0 && (
          <div class="chips" role="group" aria-label={t('categories')}>
            {[{ id: null, name: t('allCategories') }, ...props.categories].map((c) => (
              <button
                key={c.id ?? 'all'}
                type="button"
                class="chip"
                aria-pressed={categoryId === c.id}
                onClick={() => setCategoryId(c.id)}
              >
                {c.name}
              </button>
            ))}
          </div>
        )}
        <label class="check">
          <input
            type="checkbox"
            checked={affordable}
            onChange={(e) => setAffordable(e.currentTarget.checked)}
          />
          {t('affordable')}
        </label>
      </div>
      <Failure error={error} />
      <p class="muted" aria-live="polite">
        {items && t('results', { n: formatNumber(total) })}
      </p>
      {items?.length === 0 && <p>{t('noResults')}</p>}
      <ul class="grid" data-testid="products">
        {items?.map((p) => (
          <li key={p.id}>
            <a class="card product" href={`#/product/${p.id}`}>
              {p.images[0] ? (
                <img
                  src={p.images[0]}
                  alt=""
                  loading="lazy"
                  width={320}
                  height={240}
                  // A picture that does not load leaves the card's colour, not a broken icon.
                  onError={(e) => (e.currentTarget.style.visibility = 'hidden')}
                />
              ) : (
                <div class="placeholder" aria-hidden="true">
                  {p.name.slice(0, 1)}
                </div>
              )}
              <h2 class="card-title">{p.name}</h2>
              <p class="price">
                {t('from', { price: `${formatNumber(p.fromCoins)} ${props.coinName}` })}
              </p>
              {!p.inStock && <p class="badge out">{t('outOfStock')}</p>}
            </a>
          </li>
        ))}
      </ul>
      {next && (
        <button type="button" class="secondary wide" onClick={() => void more()}>
          {t('loadMore')}
        </button>
      )}
    </section>
  );
}
