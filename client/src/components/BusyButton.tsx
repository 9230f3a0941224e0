import { Button } from '@tarojs/components';
import { flag } from '../utils/flag';
import type { Tappable } from './tappable';

/** A button that spins and takes no second tap while its request runs. */
export default function BusyButton(props: Tappable & { busy: boolean; className: string }) {
  return (
    <Button
      className={props.className}
      data-testid={props.testid}
      loading={flag(props.busy)}
      disabled={flag(props.busy)}
      onClick={props.onClick}
    >
      {props.children}
    </Button>
  );
}
