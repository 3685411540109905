// Where a physical prize goes: one of the player's saved addresses, or a new one (kept for next
// time when the player says so). Every field has its label; the country is its ISO code.
import { useState } from 'preact/hooks';
import type { ResultOf } from 'gql.tada';
import type { Product } from '../documents';
import { t, type Word } from '../i18n';

export type SavedAddress = ResultOf<typeof Product>['marketplace']['addresses'][number];

export type Delivery =
  | { addressId: string }
  | {
      address: {
        firstName: string;
        lastName: string;
        addressLine1: string;
        addressLine2?: string;
        city: string;
        province?: string;
        postalCode: string;
        country: string;
        phone?: string;
      };
      saveAddress: boolean;
    };

const FIELDS: { name: string; word: Word; required: boolean; autocomplete: string }[] = [
  { name: 'firstName', word: 'firstName', required: true, autocomplete: 'given-name' },
  { name: 'lastName', word: 'lastName', required: true, autocomplete: 'family-name' },
  { name: 'addressLine1', word: 'addressLine1', required: true, autocomplete: 'address-line1' },
  { name: 'addressLine2', word: 'addressLine2', required: false, autocomplete: 'address-line2' },
  { name: 'postalCode', word: 'postalCode', required: true, autocomplete: 'postal-code' },
  { name: 'city', word: 'city', required: true, autocomplete: 'address-level2' },
  { name: 'province', word: 'province', required: false, autocomplete: 'address-level1' },
  { name: 'country', word: 'country', required: true, autocomplete: 'country' },
  { name: 'phone', word: 'phone', required: false, autocomplete: 'tel' },
];

export const oneLine = (a: SavedAddress) =>
  [`${a.firstName} ${a.lastName}`, a.addressLine1, `${a.postalCode} ${a.city}`, a.country]
    .filter(Boolean)
    .join(', ');

/** The chooser; `onChange` gets the delivery, or null while the new address is incomplete. */
export function AddressChooser(props: {
  saved: SavedAddress[];
  onChange: (delivery: Delivery | null) => void;
}) {
  const [choice, setChoice] = useState<string>(props.saved[0]?.id ?? 'new');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [save, setSave] = useState(true);

  const report = (nextChoice: string, nextFields: Record<string, string>, nextSave: boolean) => {
    if (nextChoice !== 'new') return props.onChange({ addressId: nextChoice });
    const complete = FIELDS.every((f) => !f.required || nextFields[f.name]?.trim());
    const address = Object.fromEntries(
      Object.entries(nextFields)
        .map(([k, v]) => [k, k === 'country' ? v.trim().toUpperCase() : v.trim()])
        .filter(([, v]) => v),
    ) as Extract<Delivery, { address: unknown }>['address'];
    props.onChange(complete ? { address, saveAddress: nextSave } : null);
  };

  return (
    <fieldset class="addresses">
      <legend>{t('deliverTo')}</legend>
      {props.saved.map((a) => (
        <label key={a.id} class="choice">
          <input
            type="radio"
            name="address"
            value={a.id}
            checked={choice === a.id}
            onChange={() => {
              setChoice(a.id);
              report(a.id, fields, save);
            }}
          />
          {oneLine(a)}
        </label>
      ))}
      <label class="choice">
        <input
          type="radio"
          name="address"
          value="new"
          checked={choice === 'new'}
          onChange={() => {
            setChoice('new');
            report('new', fields, save);
          }}
        />
        {t('newAddress')}
      </label>
      {choice === 'new' && (
        <div class="form-grid">
          {FIELDS.map((f) => (
            <label key={f.name} class="field">
              <span>{t(f.word)}</span>
              <input
                name={f.name}
                required={f.required}
                autocomplete={f.autocomplete}
                maxLength={f.name === 'country' ? 2 : 300}
                value={fields[f.name] ?? ''}
                onInput={(e) => {
                  const next = { ...fields, [f.name]: e.currentTarget.value };
                  setFields(next);
                  report('new', next, save);
                }}
              />
            </label>
          ))}
          <label class="check">
            <input
              type="checkbox"
              checked={save}
              onChange={(e) => {
                setSave(e.currentTarget.checked);
                report('new', fields, e.currentTarget.checked);
              }}
            />
            {t('saveAddress')}
          </label>
        </div>
      )}
    </fieldset>
  );
}
