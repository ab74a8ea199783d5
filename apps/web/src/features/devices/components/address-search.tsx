import { useEffect, useId, useRef, useState } from 'react';
import { roundCoordinate } from '@fieldlink/domain/location';
import {
  ADDRESS_SEARCH_DELAY_MS,
  ADDRESS_SUGGESTIONS_BLUR_HIDE_MS,
  shouldSearchAddress,
} from '@fieldlink/domain/device-panel';
import { SearchIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { searchAddress, type AddressSuggestion } from '../api/search-address';

export interface AddressSearchProps {
  geocoderUrl: string;
  /** Suggestions are biased around this point (the device's current location). */
  near: { lat: number; lng: number } | null;
  onChoose: (place: AddressSuggestion) => void;
}

/**
 * "Search for new address" (core §2, §5): searches from the first character after a 250 ms pause,
 * lists at most 10 suggestions near the current location, and hides them 100 ms after the box loses
 * focus (so a click on a suggestion still lands). A chosen address's coordinates are rounded to 6
 * decimals.
 */
export function AddressSearch({ geocoderUrl, near, onChoose }: AddressSearchProps) {
  const [text, setText] = useState('');
  const [suggestions, setSuggestions] = useState<AddressSuggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [active, setActive] = useState(-1);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const listId = useId();
  const inputId = useId();
  const nearLat = near?.lat;
  const nearLng = near?.lng;

  useEffect(() => {
    if (!shouldSearchAddress(text)) {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setBusy(true);
      const around = nearLat !== undefined && nearLng !== undefined ? { lat: nearLat, lng: nearLng } : null;
      searchAddress(geocoderUrl, text.trim(), around, controller.signal)
        .then((found) => {
          setSuggestions(found);
          setFailed(false);
          setActive(-1);
        })
        .catch((error: unknown) => {
          if (!(error instanceof DOMException && error.name === 'AbortError')) setFailed(true);
        })
        .finally(() => setBusy(false));
    }, ADDRESS_SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, geocoderUrl, nearLat, nearLng]);

  useEffect(() => () => void (hideTimer.current && clearTimeout(hideTimer.current)), []);

  const choose = (place: AddressSuggestion) => {
    onChoose({ label: place.label, lat: roundCoordinate(place.lat), lng: roundCoordinate(place.lng) });
    setText('');
    setSuggestions([]);
    setOpen(false);
  };

  const showList =
    open && shouldSearchAddress(text) && (suggestions.length > 0 || failed || (!busy && suggestions.length === 0));

  return (
    <div className="address-search">
      <label className="fl-field__label" htmlFor={inputId}>
        Search for new address
      </label>
      <div className="address-search__box">
        <SearchIcon size={16} />
        <input
          id={inputId}
          className="address-search__input"
          type="search"
          value={text}
          placeholder="Street, town or place"
          autoComplete="off"
          role="combobox"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
          }}
          onFocus={() => {
            if (hideTimer.current) clearTimeout(hideTimer.current);
            setOpen(true);
          }}
          onBlur={() => {
            hideTimer.current = setTimeout(() => setOpen(false), ADDRESS_SUGGESTIONS_BLUR_HIDE_MS);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') setActive((i) => Math.min(suggestions.length - 1, i + 1));
            else if (event.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
            else if (event.key === 'Enter' && suggestions[active]) {
              event.preventDefault();
              choose(suggestions[active]);
            } else if (event.key === 'Escape') setOpen(false);
            else return;
            event.preventDefault();
          }}
        />
        {busy && <Spinner size={14} />}
      </div>
      {showList && (
        <ul className="address-search__list" id={listId} role="listbox" aria-label="Suggested addresses">
          {failed && <li className="address-search__note">Address search is not answering.</li>}
          {!failed && suggestions.length === 0 && !busy && <li className="address-search__note">No address found.</li>}
          {suggestions.map((place, index) => (
            <li
              key={`${place.label}-${index}`}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'is-active' : undefined}
              // mousedown, not click: it lands before the input's blur starts the hide timer.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(place);
              }}
            >
              {place.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
