import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { ICONS, PlayIcon, SearchIcon, WarningIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';
import { PublicFrame } from '../../../components/ui/public-frame';
import { Spinner } from '../../../components/ui/spinner';
import { apiResourceUrl } from '../../../lib/api-address';
import { videosQuery } from '../api/get-videos';
import './public-pages.css';

/** `/empty`: a deliberately blank page (used as a neutral target, e.g. in embedded views). */
export function EmptyPage() {
  return <div className="empty-page" />;
}

export function PrivacyPage() {
  return (
    <PublicFrame>
      <article className="prose">
        <h1>Privacy</h1>
        <p className="fl-muted">How this console handles your information.</p>
        <h2>What we keep</h2>
        <p>
          Your name, email address and the permissions your administrator grants you; the devices, groups and dashboards
          of your accounts; and the values your devices report. Passwords are stored only as salted hashes.
        </p>
        <h2>What your browser keeps</h2>
        <p>
          A sign-in token, your chosen colour theme and your device-table filter, in this browser&apos;s local storage.
          Signing out removes the token. The app shell is cached so the console opens quickly; device data is never
          cached.
        </p>
        <h2>Who sees your data</h2>
        <p>
          Only users of your accounts, within the groups they are attached to. Support staff of your supplier may access
          it to help you, and only when you ask them to.
        </p>
        <p>
          <Link to="/signin">Back to sign in</Link>
        </p>
      </article>
    </PublicFrame>
  );
}

/**
 * `/videos/*`: the video library, always in the GREY theme (specification §1): the videos of the
 * server's `VIDEOS_DIR` and `VIDEO_URLS`, the chosen one playing above the list. With none configured
 * it says so rather than showing titles that never play.
 */
export function VideosPage() {
  const { '*': slug = '' } = useParams();
  const library = useQuery(videosQuery());
  const videos = library.data?.videos ?? [];
  const selected = videos.find((video) => video.slug === slug) ?? null;

  if (library.isPending) {
    return (
      <PublicFrame wide>
        <h1>Videos</h1>
        <div className="videos__state" role="status">
          <Spinner size={22} label="Loading the video library" />
        </div>
      </PublicFrame>
    );
  }
  if (library.isError) {
    return (
      <PublicFrame>
        <PanelMessage
          icon={<WarningIcon size={26} />}
          title="The video library could not be read"
          actions={
            <Button variant="primary" onClick={() => void library.refetch()}>
              Try again
            </Button>
          }
        >
          Check your connection and try again.
        </PanelMessage>
      </PublicFrame>
    );
  }
  if (videos.length === 0) {
    return (
      <PublicFrame>
        <PanelMessage icon={<PlayIcon size={26} />} eyebrow="Videos" title="No videos yet">
          Guides published for this console appear here. None have been published so far.
        </PanelMessage>
      </PublicFrame>
    );
  }
  return (
    <PublicFrame wide>
      <h1>{selected ? selected.title : 'Videos'}</h1>
      {slug && !selected ? (
        <p className="videos__lead" role="alert">
          This video is not in the library any more. Choose another below.
        </p>
      ) : (
        <p className="fl-muted videos__lead">
          {selected ? 'Playing from the library.' : `${videos.length} short guides to the console.`}
        </p>
      )}
      {selected && (
        <video
          key={selected.slug}
          className="videos__player"
          controls
          preload="metadata"
          data-testid="video-player"
          aria-label={selected.title}
        >
          <source src={apiResourceUrl(selected.url)} type={selected.type} />
          Your browser cannot play this video. <a href={apiResourceUrl(selected.url)}>Download it</a> instead.
        </video>
      )}
      <div className="videos__grid">
        {videos.map((video) => (
          <Link
            key={video.slug}
            to={`/videos/${video.slug}`}
            className={`videos__card fl-card${video.slug === slug ? ' is-selected' : ''}`}
            aria-current={video.slug === slug ? 'page' : undefined}
          >
            <span className="videos__thumb">
              <PlayIcon size={34} />
            </span>
            <span className="videos__title">{video.title}</span>
          </Link>
        ))}
      </div>
    </PublicFrame>
  );
}

/** `/iconpreview`: the kit's icons, for designers and developers. */
export function IconPreviewPage() {
  return (
    <PublicFrame wide>
      <h1>Icons</h1>
      <p className="fl-muted videos__lead">{Object.keys(ICONS).length} icons of the shared kit.</p>
      <div className="icons__grid">
        {Object.entries(ICONS).map(([name, Icon]) => (
          <div key={name} className="icons__cell fl-card">
            <Icon size={24} />
            <span>{name.replace(/Icon$/, '')}</span>
          </div>
        ))}
      </div>
    </PublicFrame>
  );
}

export function NotFoundPage() {
  return (
    <PanelMessage
      icon={<SearchIcon size={26} />}
      eyebrow="404"
      title="Page not found"
      actions={
        // The user's own start page (the variant's landing): not every user may open dashboards.
        <Link to="/coming-soon" className="fl-button fl-button--primary">
          Go to the start page
        </Link>
      }
    >
      The address may be mistyped, or the page may have moved.
    </PanelMessage>
  );
}
