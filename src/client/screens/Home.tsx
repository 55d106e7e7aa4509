/** Home (SPEC 2.7): only when signed in, the heading 'available services' and a card per service. */
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import { DEFAULT_LANGUAGE, isLanguage } from '../../common/languages.js';
import { Loader } from '../engine/Loader.js';
import { SERVICES_OPERATION, selectServices, servicesRequested, type ServiceCard } from '../features/services/index.js';
import { isPending } from '../state/operations.js';
import { isLoggedIn } from '../state/session.js';

function Card({ service }: { service: ServiceCard }): ReactElement {
  return (
    <li className="service-card">
      <Link to={`/services/${service.id}`} className="service-card__link">
        {service.thumbnailUrl && <img className="service-card__thumbnail" src={service.thumbnailUrl} alt="" width={320} height={180} />}
        <h3 className="service-card__name">{service.name}</h3>
      </Link>
      {service.summary.split('\n').map((line, index) => (
        <p key={index} className="service-card__summary">
          {line}
        </p>
      ))}
    </li>
  );
}

export default function Home(): ReactElement | null {
  const { t, i18n } = useTranslation();
  const dispatch = useDispatch();
  const loggedIn = useSelector(isLoggedIn);
  const services = useSelector(selectServices);
  const loading = useSelector(isPending(SERVICES_OPERATION));
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;

  useEffect(() => {
    if (loggedIn) dispatch(servicesRequested({ language }));
  }, [dispatch, loggedIn, language]);

  if (!loggedIn) return null;
  return (
    <section aria-labelledby="services-title">
      <h2 id="services-title">{t('home.availableServices')}</h2>
      {loading && services.length === 0 ? (
        <Loader />
      ) : (
        <ul className="service-grid">
          {services.map((service) => (
            <Card key={service.id} service={service} />
          ))}
        </ul>
      )}
    </section>
  );
}
