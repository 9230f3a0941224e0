import { Button, Text, View } from '@tarojs/components';
import type { ErrorView } from '../services/errors';
import { runRemedy, type Handlers } from '../utils/remedy';

interface ErrorPanelProps {
  error: ErrorView;
  onAction: () => void;
  onClose?: () => void;
  /** Inline (a page that failed to load) or a sheet over the page (an action that failed). */
  variant?: 'inline' | 'sheet';
}

/** An error in the fan's words with one clear way forward. */
export default function ErrorPanel({ error, onAction, onClose, variant = 'sheet' }: ErrorPanelProps) {
  const body = (
    <View className={`error-panel error-panel--${variant}`} data-testid="error-panel" data-code={error.code}>
      <Text className="error-panel__title">{error.title}</Text>
      <Text className="error-panel__message">{error.message}</Text>
      <View className="error-panel__actions">
        {onClose ? (
          <Button className="btn btn--ghost" onClick={onClose}>
            知道了
          </Button>
        ) : null}
        <Button className="btn btn--primary" data-testid="error-action" onClick={onAction}>
          {error.actionText}
        </Button>
      </View>
    </View>
  );
  if (variant === 'inline') return body;
  return <View className="sheet-mask">{body}</View>;
}

/**
 * An action's error as a sheet, or nothing: 知道了 dismisses it; its way forward dismisses it,
 * then runs (runRemedy with the page's handlers, else `reload`).
 */
export function RemedySheet(p: {
  error: ErrorView | undefined;
  dismiss: () => void;
  handlers: Handlers;
  reload: () => void;
}) {
  const { error } = p;
  if (!error) return null;
  return (
    <ErrorPanel
      error={error}
      onClose={p.dismiss}
      onAction={() => {
        p.dismiss();
        runRemedy(error, p.handlers, p.reload);
      }}
    />
  );
}
