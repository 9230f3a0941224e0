/** Valid mainland ID numbers (GB 11643 check digit) for attendee forms in tests. */
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';

export function mainlandId(birth = '19900101', seq = 123, area = '110105') {
  const body = `${area}${birth}${String(seq).padStart(3, '0')}`;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(body[i]) * WEIGHTS[i];
  return body + CHECK[sum % 11];
}
