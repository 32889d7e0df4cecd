// Settings as people understand them: grouped, labelled controls with a description each, ranges
// from the engine's own description (settings.describe), validation errors beside the field they
// concern, and "reset to default" per setting.
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { LociCallError } from '../../../main/contract/errors.js';
import { Button, ErrorBox, ui } from '../components/ui.js';
import { useApp } from '../lib/app-context.js';
import type { Res } from '../../../main/contract/contract.js';
import css from './SettingsForm.module.css';

type Value = string | number | boolean;
type SettingDescription = Res<'settings.describe'>[number];
/** Edited in the Language model panel below, with its catalogue and import. */
const MODEL_PANEL_KEYS = new Set(['model', 'threads']);

type Choice = { value: string; label: string };

/** `choices`: further values a setting's field offers (installed embedding models for `embedder`). */
export function DescribedSettings({
  settings,
  settingsError,
  onSaved,
  choices = {},
}: {
  settings: Record<string, unknown> | null;
  settingsError: unknown;
  onSaved(): void;
  choices?: Record<string, Choice[]>;
}) {
  const { client } = useApp();
  const [described, setDescribed] = useState<SettingDescription[] | null>(null);
  const [describeError, setDescribeError] = useState<unknown>(null);
  const [draft, setDraft] = useState<Record<string, Value>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    client.call('settings.describe', {}).then(setDescribed, setDescribeError);
  }, [client]);

  useEffect(() => {
    if (!settings) return;
    const d: Record<string, Value> = {};
    for (const [k, v] of Object.entries(settings)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') d[k] = v;
    setDraft(d);
  }, [settings]);

  const groups = useMemo(() => {
    const by = new Map<string, SettingDescription[]>();
    for (const s of described ?? []) {
      if (MODEL_PANEL_KEYS.has(s.key)) continue;
      const list = by.get(s.group) ?? [];
      list.push(s);
      by.set(s.group, list);
    }
    return [...by.entries()];
  }, [described]);

  const clientErrors = useMemo(() => {
    const errs: Record<string, string> = {};
    for (const s of described ?? []) {
      const e = validate(s, draft[s.key]);
      if (e) errs[s.key] = e;
    }
    return errs;
  }, [described, draft]);

  const changed = (described ?? []).filter((s) => settings && draft[s.key] !== settings[s.key] && !MODEL_PANEL_KEYS.has(s.key));

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    setFormError(null);
    setServerErrors({});
    if (Object.keys(clientErrors).length) return;
    const patch = Object.fromEntries(changed.map((s) => [s.key, draft[s.key]]));
    try {
      await client.call('settings.update', { patch });
      setSaved(true);
      onSaved();
    } catch (err) {
      const byField = fieldErrors(err, Object.keys(patch));
      if (Object.keys(byField).length) setServerErrors(byField);
      else setFormError(err);
    }
  }

  async function reset(s: SettingDescription) {
    setSaved(false);
    setServerErrors((e) => ({ ...e, [s.key]: '' }));
    try {
      // null resets a setting to its default on the engine side.
      await client.call('settings.update', { patch: { [s.key]: null } });
      onSaved();
    } catch (err) {
      setServerErrors((e) => ({ ...e, [s.key]: err instanceof Error ? err.message : String(err) }));
    }
  }

  return (
    <form className={`${ui.panel} ${ui.stack}`} onSubmit={save} aria-labelledby="engine-settings" noValidate data-testid="settings-form">
      <h2 id="engine-settings" className={ui.subheading}>
        Engine
      </h2>
      <ErrorBox error={settingsError ?? describeError ?? formError} />
      {groups.map(([group, items]) => (
        <fieldset key={group} className={css.group}>
          <legend className={css.legend}>{group}</legend>
          {items.map((s) => (
            <SettingField
              key={s.key}
              setting={s}
              choices={choices[s.key] ?? []}
              value={draft[s.key]}
              error={clientErrors[s.key] || serverErrors[s.key] || null}
              onChange={(v) => {
                setSaved(false);
                setServerErrors((e) => ({ ...e, [s.key]: '' }));
                setDraft((d) => ({ ...d, [s.key]: v }));
              }}
              onReset={() => reset(s)}
              isDefault={settings ? settings[s.key] === s.default : true}
            />
          ))}
        </fieldset>
      ))}
      {described && (
        <span className={ui.row}>
          <Button type="submit" variant="primary" disabled={!changed.length || Object.keys(clientErrors).length > 0}>
            Save {changed.length ? `(${changed.length} changed)` : ''}
          </Button>
          {saved && (
            <span className={ui.muted} role="status">
              Saved.
            </span>
          )}
        </span>
      )}
    </form>
  );
}

function SettingField({
  setting: s,
  choices,
  value,
  error,
  onChange,
  onReset,
  isDefault,
}: {
  setting: SettingDescription;
  choices: Choice[];
  value: Value | undefined;
  error: string | null;
  onChange(v: Value): void;
  onReset(): void;
  isDefault: boolean;
}) {
  const id = useId();
  const describedBy = `${id}-desc${error ? ` ${id}-err` : ''}`;
  const options = [...(s.options ?? []).map((o) => ({ value: o, label: s.optionLabels?.[o] ?? o })), ...choices.filter((c) => !s.options?.includes(c.value))];
  let control;
  if (s.kind === 'toggle') {
    control = <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-describedby={describedBy} />;
  } else if (s.kind === 'select' && s.allowCustom) {
    // A choice of known values that also takes a typed one (an embedder folder, say).
    control = (
      <>
        <input
          id={id}
          className={ui.input}
          list={`${id}-options`}
          value={String(value ?? '')}
          placeholder={s.placeholder}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={describedBy}
          aria-invalid={!!error}
        />
        <datalist id={`${id}-options`}>
          {options.map((o) => (
            <option key={o.value} value={o.value} label={o.label === o.value ? undefined : o.label} />
          ))}
        </datalist>
      </>
    );
  } else if (s.kind === 'select') {
    const current = String(value ?? '');
    control = (
      <select id={id} className={ui.select} value={current} onChange={(e) => onChange(e.target.value)} aria-describedby={describedBy} aria-invalid={!!error}>
        {!options.some((o) => o.value === current) && <option value={current}>{current || '(none)'}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else if (s.kind === 'number') {
    control = (
      <input
        id={id}
        className={`${ui.select} ${css.number}`}
        type="number"
        min={s.min}
        max={s.max}
        step={s.step ?? (s.integer ? 1 : 'any')}
        value={typeof value === 'number' && Number.isFinite(value) ? value : ''}
        onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
        aria-describedby={describedBy}
        aria-invalid={!!error}
      />
    );
  } else {
    control = (
      <input id={id} className={ui.input} value={String(value ?? '')} placeholder={s.placeholder} onChange={(e) => onChange(e.target.value)} aria-describedby={describedBy} aria-invalid={!!error} />
    );
  }
  const range = s.kind === 'number' ? rangeText(s) : '';
  return (
    <div className={css.field} data-testid={`setting-${s.key}`}>
      <label htmlFor={id} className={css.label}>
        {s.label}
      </label>
      <div className={css.control}>
        {control}
        <Button size="small" onClick={onReset} disabled={isDefault} aria-label={`Reset ${s.label} to its default (${String(s.default)})`}>
          Reset to default
        </Button>
      </div>
      <p id={`${id}-desc`} className={css.description}>
        {s.description}
        {range && ` ${range}`} <span className={css.default}>Default: {String(s.default) || '(none)'}.</span>
      </p>
      {error && (
        <p id={`${id}-err`} className={css.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function rangeText(s: SettingDescription): string {
  if (s.min !== undefined && s.max !== undefined) return `From ${s.min} to ${s.max}.`;
  if (s.min !== undefined) return `At least ${s.min}.`;
  if (s.max !== undefined) return `At most ${s.max}.`;
  return '';
}

function validate(s: SettingDescription, v: Value | undefined): string | null {
  if (s.kind !== 'number') return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) return `${s.label} needs a number.`;
  if (s.integer && !Number.isInteger(v)) return `${s.label} must be a whole number.`;
  if (s.min !== undefined && v < s.min) return `${s.label} must be at least ${s.min}.`;
  if (s.max !== undefined && v > s.max) return `${s.label} must be at most ${s.max}.`;
  return null;
}

/** The engine names the offending setting ("Setting 'x' must…", or a contract issue path); put the message on that field. */
function fieldErrors(err: unknown, keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (err instanceof LociCallError) {
    for (const issue of err.issues) {
      const key = keys.find((k) => issue.path === k || issue.path.endsWith(`.${k}`));
      if (key) out[key] = issue.message;
    }
  }
  const message = err instanceof Error ? err.message : String(err);
  const named = /Setting '([^']+)'/.exec(message)?.[1];
  if (named && keys.includes(named)) out[named] = message.replace(/^loci call "[^"]+" failed: /, '');
  return out;
}
