// /{product}/policies/{id}: placeholder until the content issue lands.
import { useParams } from 'react-router';
import { Placeholder } from '../../../components/Placeholder';

export default function PolicyPage() {
  const { id = '' } = useParams();
  return (
    <Placeholder
      title="Our policies"
      description="The shop's policies: delivery, returns and privacy."
      holds={[`The policy with id ${id}`]}
    />
  );
}
