// The demo tenant's sample catalog (admin demo, and npm start on a fresh database): enough to run
// the whole integration loop — categories, a dozen products with variants and translations,
// listings in the demo market, a store, an approved catalog and a pending proposal.
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import {
  createCatalog,
  createCategory,
  createListing,
  createProduct,
  createStore,
} from './author-catalog.js';

type Names = [en: string, es: string, pt: string, it: string, fr: string];
const LANGS = ['en', 'es', 'pt', 'it', 'fr'] as const;
const names = (n: Names) => Object.fromEntries(LANGS.map((l, i) => [l, n[i]]));

const CATEGORIES: { slug: string; names: Names }[] = [
  {
    slug: 'electronics',
    names: ['Electronics', 'Electrónica', 'Eletrónica', 'Elettronica', 'Électronique'],
  },
  {
    slug: 'gift-cards',
    names: ['Gift cards', 'Tarjetas regalo', 'Cartões presente', 'Carte regalo', 'Cartes cadeaux'],
  },
  { slug: 'fashion', names: ['Fashion', 'Moda', 'Moda', 'Moda', 'Mode'] },
  {
    slug: 'experiences',
    names: ['Experiences', 'Experiencias', 'Experiências', 'Esperienze', 'Expériences'],
  },
];

type Sample = {
  category: string;
  kind: 'physical' | 'digital';
  names: Names;
  description: string;
  /** [sku suffix, attributes, stock, base cost in cents] */
  variants: [string, Record<string, string>, number, number][];
};

const PRODUCTS: Sample[] = [
  {
    category: 'electronics',
    kind: 'physical',
    names: [
      'Wireless earbuds',
      'Auriculares inalámbricos',
      'Auriculares sem fios',
      'Auricolari wireless',
      'Écouteurs sans fil',
    ],
    description: 'Bluetooth earbuds with a charging case.',
    variants: [
      ['WHT', { colour: 'white' }, 40, 4500],
      ['BLK', { colour: 'black' }, 40, 4500],
    ],
  },
  {
    category: 'electronics',
    kind: 'physical',
    names: [
      'Smartwatch',
      'Reloj inteligente',
      'Relógio inteligente',
      'Smartwatch',
      'Montre connectée',
    ],
    description: 'Fitness tracking and notifications.',
    variants: [
      ['S', { size: 'S' }, 15, 12000],
      ['L', { size: 'L' }, 15, 12000],
    ],
  },
  {
    category: 'electronics',
    kind: 'physical',
    names: [
      'Portable speaker',
      'Altavoz portátil',
      'Coluna portátil',
      'Cassa portatile',
      'Enceinte portable',
    ],
    description: 'Water-resistant speaker, 12 h battery.',
    variants: [['STD', {}, 25, 3900]],
  },
  {
    category: 'electronics',
    kind: 'physical',
    names: ['Power bank', 'Batería externa', 'Bateria externa', 'Power bank', 'Batterie externe'],
    description: '10,000 mAh with USB-C.',
    variants: [['STD', {}, 60, 1800]],
  },
  {
    category: 'gift-cards',
    kind: 'digital',
    names: [
      'Online store gift card',
      'Tarjeta regalo tienda online',
      'Cartão presente loja online',
      'Carta regalo negozio online',
      'Carte cadeau boutique en ligne',
    ],
    description: 'Delivered by e-mail.',
    variants: [
      ['25', { denomination: '25 EUR' }, 500, 2500],
      ['50', { denomination: '50 EUR' }, 500, 5000],
      ['100', { denomination: '100 EUR' }, 200, 10000],
    ],
  },
  {
    category: 'gift-cards',
    kind: 'digital',
    names: [
      'Streaming subscription',
      'Suscripción de streaming',
      'Assinatura de streaming',
      'Abbonamento streaming',
      'Abonnement streaming',
    ],
    description: 'Three months of films and series.',
    variants: [['3M', { duration: '3 months' }, 300, 2700]],
  },
  {
    category: 'gift-cards',
    kind: 'digital',
    names: [
      'Coffee shop voucher',
      'Vale de cafetería',
      'Vale de cafetaria',
      'Buono caffetteria',
      'Bon café',
    ],
    description: 'Redeemable in 500 coffee shops.',
    variants: [['10', { denomination: '10 EUR' }, 1000, 1000]],
  },
  {
    category: 'fashion',
    kind: 'physical',
    names: [
      'Branded hoodie',
      'Sudadera de marca',
      'Sweatshirt de marca',
      'Felpa con logo',
      'Sweat à capuche',
    ],
    description: 'Organic cotton hoodie.',
    variants: [
      ['S', { size: 'S' }, 20, 2200],
      ['M', { size: 'M' }, 30, 2200],
      ['L', { size: 'L' }, 30, 2200],
      ['XL', { size: 'XL' }, 10, 2200],
    ],
  },
  {
    category: 'fashion',
    kind: 'physical',
    names: ['Baseball cap', 'Gorra', 'Boné', 'Cappellino', 'Casquette'],
    description: 'Adjustable cap.',
    variants: [
      ['RED', { colour: 'red' }, 50, 900],
      ['NVY', { colour: 'navy' }, 50, 900],
    ],
  },
  {
    category: 'fashion',
    kind: 'physical',
    names: [
      'Travel backpack',
      'Mochila de viaje',
      'Mochila de viagem',
      'Zaino da viaggio',
      'Sac à dos de voyage',
    ],
    description: '30 litres, laptop sleeve.',
    variants: [['STD', {}, 12, 5200]],
  },
  {
    category: 'experiences',
    kind: 'digital',
    names: [
      'Spa day for two',
      'Día de spa para dos',
      'Dia de spa para dois',
      'Giornata spa per due',
      'Journée spa pour deux',
    ],
    description: 'Valid for a year.',
    variants: [['STD', {}, 30, 9000]],
  },
  {
    category: 'experiences',
    kind: 'digital',
    names: [
      'Football match tickets',
      'Entradas de fútbol',
      'Bilhetes de futebol',
      'Biglietti per la partita',
      'Billets de match',
    ],
    description: 'Two tickets, league match of your choice.',
    variants: [['STD', {}, 8, 15000]],
  },
];

/** Seeds the sample catalog once per demo sub-brand; a rerun finds it and does nothing. */
export async function ensureDemoCatalog(
  db: Db,
  subBrand: { id: string; country: string; currency: string },
) {
  if (await db.listingMarket.findFirst({ where: { subBrandId: subBrand.id } })) return;
  await inTransaction(db, async (tx) => {
    const categories = new Map<string, string>();
    for (const c of CATEGORIES) {
      const found = await tx.category.findUnique({ where: { slug: c.slug } });
      categories.set(
        c.slug,
        (found ?? (await createCategory(tx, { slug: c.slug, names: names(c.names) }))).id,
      );
    }
    const productIds: string[] = [];
    const tag = subBrand.id.slice(-6).toUpperCase(); // SKUs are unique platform-wide
    for (const [n, p] of PRODUCTS.entries()) {
      const product = await createProduct(tx, {
        categoryId: categories.get(p.category),
        kind: p.kind,
        translations: Object.fromEntries(
          LANGS.map((l, i) => [
            l,
            { name: p.names[i]!, ...(l === 'en' ? { description: p.description } : {}) },
          ]),
        ),
        images: [`https://images.example.com/demo/${p.category}/${n + 1}.jpg`],
        variants: p.variants.map(([sku, attributes, stock]) => ({
          sku: `DEMO-${tag}-${n + 1}-${sku}`,
          attributes,
          stock,
        })),
      });
      productIds.push(product.id);
      const variants = await tx.productVariant.findMany({
        where: { productId: product.id },
        orderBy: { position: 'asc' },
      });
      for (const [i, v] of variants.entries()) {
        await createListing(tx, {
          subBrandId: subBrand.id,
          variantId: v.id,
          country: subBrand.country,
          currency: subBrand.currency,
          baseCost: p.variants[i]![3],
        });
      }
    }
    const everything = await createCatalog(tx, {
      name: 'Demo rewards',
      description: 'Every sample prize.',
      productIds,
    });
    await createCatalog(tx, {
      subBrandId: subBrand.id,
      name: 'Summer proposal',
      description: 'A proposal awaiting review: invisible to partner keys until approved.',
      productIds: productIds.slice(0, 3),
    });
    await createStore(tx, {
      subBrandId: subBrand.id,
      name: 'Demo Casino Rewards',
      slug: 'rewards',
      description: 'Spend your coins on prizes.',
      catalogIds: [everything.id],
    });
  });
}
