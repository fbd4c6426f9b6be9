import { useEffect, useState } from 'preact/hooks';
import { NotFound } from './not-found.js';
import { parseRoute } from './route.js';
import { ThreadList } from './thread-list.js';
import { ThreadPage } from './thread-page.js';

/** Two pages, by hash: `#/` the list, `#/thread/<id>` one thread; anything else is not found. */
export function App() {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return (
    <>
      <header class="top">
        <a href="#/">Skein inspector</a>
      </header>
      <main>
        {route.kind === 'list' ? (
          <ThreadList />
        ) : route.kind === 'thread' ? (
          <ThreadPage threadId={route.threadId} key={route.threadId} />
        ) : (
          <NotFound what={route.reason} />
        )}
      </main>
    </>
  );
}
