const KEYS = [...'123456789*0#'];

/** The dial pad: each key sends its tone on the selected call. */
export function DialPad(props: { readonly onKey: (key: string) => void }) {
  return (
    <div class="pad" id="pad">
      {KEYS.map((key) => (
        <button type="button" key={key} onClick={() => props.onKey(key)}>
          {key}
        </button>
      ))}
    </div>
  );
}
