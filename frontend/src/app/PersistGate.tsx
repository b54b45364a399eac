// Renders the app once the persisted auth, cart and discount are back from storage (or redux-persist's
// 5 s timeout passed), so no screen sees an empty basket or a logged-out shopper for one frame. A few
// lines instead of redux-persist's own gate, which costs the home page more script.
import { useSyncExternalStore, type ReactNode } from 'react';
import type { Persistor } from 'redux-persist';

export function PersistGate({ persistor, children }: { persistor: Persistor; children: ReactNode }) {
  const ready = useSyncExternalStore(persistor.subscribe, () => persistor.getState().bootstrapped);
  return ready ? children : null;
}
