const KEYS = [...'123456789*0#'];
const LETTERS: Readonly<Record<string, string>> = {
  '2': 'ABC',
  '3': 'DEF',
  '4': 'GHI',
  '5': 'JKL',
  '6': 'MNO',
  '7': 'PQRS',
  '8': 'TUV',
  '9': 'WXYZ',
};

/**
 * The dial pad: each key sends its tone on the selected call. From the keyboard: Tab to a key and
 * press Enter or Space, or type the digits (0-9, *, #) while a key has the focus.
 */
export function DialPad(props: { readonly disabled: boolean; readonly onKey: (key: string) => void }) {
  return (
    <fieldset
      class="pad"
      id="pad"
      onKeyDown={(e) => {
        if (props.disabled || !KEYS.includes(e.key) || e.ctrlKey || e.metaKey || e.altKey) return;
        e.preventDefault();
        props.onKey(e.key);
      }}
    >
      <legend class="sr-only">Dial pad</legend>
      {KEYS.map((key) => (
        <button
          type="button"
          key={key}
          disabled={props.disabled}
          data-key={key}
          onClick={() => props.onKey(key)}
        >
          {key}
          <small aria-hidden="true">{LETTERS[key] ?? ''}</small>
        </button>
      ))}
    </fieldset>
  );
}
