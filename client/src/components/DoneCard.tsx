import { Button, Text, View } from '@tarojs/components';
import type { ReactNode } from 'react';

interface Props {
  /** The page's BEM block: the page gets it, the button `${block}__go`. */
  block: string;
  testid: string;
  title: string;
  sub: string;
  /** Lines between the sub-title and the button. */
  children?: ReactNode;
  action: { text: string; testid: string; onTap: () => void };
}

/** What a code page (CodeEntry) shows once its code went through: what happened, and the way on. */
export default function DoneCard({ block, testid, title, sub, children, action }: Props) {
  return (
    <View className={`page ${block}`} data-testid={testid}>
      <View className="card">
        <Text className="card__title">{title}</Text>
        <Text className="card__sub">{sub}</Text>
        {children}
        <Button
          className={`btn btn--primary ${block}__go`}
          data-testid={action.testid}
          onClick={action.onTap}
        >
          {action.text}
        </Button>
      </View>
    </View>
  );
}
