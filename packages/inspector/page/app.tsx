import { useEffect, useState } from 'preact/hooks';
import { ThreadList } from './thread-list.js';
import { ThreadPage } from './thread-page.js';

function currentRoute(): string {
  return decodeURIComponent(location.hash.replace(/^#\/?/, ''));
}

/** Two pages, by hash: `#/` the list, `#/thread/<id>` one thread. */
export function App() {
  const [route, setRoute] = useState(currentRoute());
  useEffect(() => {
    const onChange = () => setRoute(currentRoute());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  const threadId = route.startsWith('thread/') ? route.slice('thread/'.length) : undefined;
  return (
    <>
      <header class="top">
        <a href="#/">Skein inspector</a>
      </header>
      <main>
        {threadId === undefined ? (
          <ThreadList />
        ) : (
          <ThreadPage threadId={threadId} key={threadId} />
        )}
      </main>
    </>
  );
}
