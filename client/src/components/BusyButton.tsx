import { Button } from '@tarojs/components';
import { flag } from '../utils/flag';

/** A button that spins and takes no second tap while its request runs. */
export default function BusyButton(props: {
  busy: boolean;
  className: string;
  testid: string;
  onClick: () => void;
  children: React.ReactNode;
}) {
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
