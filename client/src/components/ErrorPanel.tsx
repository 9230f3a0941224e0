import { Button, Text, View } from '@tarojs/components';
import type { ErrorView } from '../services/errors';

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
