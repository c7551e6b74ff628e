// What each demo client sells, whom it competes with and what its buyers weigh: the facts its
// prompts, answers and traffic mixes are made of. Every name is made up for the demo.

/** The languages the demo's answers are written in; any other locale reads English. */
export type Language = 'en' | 'de' | 'fr';
/** How a business finds its customers: it shapes its channel, device, country and campaign mixes. */
export type BusinessKind = 'shop' | 'software' | 'local';
export const COUNTRIES = ['US', 'DE', 'GB', 'FR', 'NL'] as const;

export interface Market {
  /** The category in the tracked prompts (English, singular): "What is the best coffee roaster …". */
  category: string;
  /** The category in answers, plural. */
  plural: Record<Language, string>;
  /**
   * What buyers compare, four per language in the same order: English and German as bare nouns
   * ("freshness", "Frische"), French with its article ("la fraîcheur"), as the answers' sentences need.
   */
  criteria: Record<Language, readonly [string, string, string, string]>;
  competitors: readonly string[];
  /** Smaller names the answers mention besides the project's own and its competitors. */
  others: readonly string[];
  kind: BusinessKind;
  home: (typeof COUNTRIES)[number];
  /** A shop that sends its goods by post (a travel agency sells trips). */
  ships?: true;
  /** Where a local firm works: its prompts ask for firms there. */
  city?: string;
}

const OUTDOOR: Market = {
  category: 'outdoor gear shop',
  plural: { en: 'outdoor gear shops', de: 'Outdoor-Shops', fr: 'magasins de plein air' },
  criteria: {
    en: ['sizing advice', 'durability', 'return policy', 'delivery speed'],
    de: ['Größenberatung', 'Haltbarkeit', 'Rückgabe', 'Lieferzeit'],
    fr: ['les conseils de taille', 'la durabilité', 'la politique de retour', 'la rapidité de livraison'],
  },
  competitors: ['Ridgeline Supply', 'Basecamp Outfitters', 'Alpenglow Gear'],
  others: ['Trailhead Co', 'Cairn Mountain Sports', 'Switchback Store'],
  kind: 'shop',
  ships: true,
  home: 'US',
};

/** By the last word of a demo client's name. */
const HOME_CRITERIA_FR = [
  'la qualité de construction',
  'le prix au mètre carré',
  "l'efficacité énergétique",
  'le respect des délais',
] as const;

export const MARKETS: Record<string, Market> = {
  Outdoor: OUTDOOR,
  Gear: OUTDOOR,
  Analytics: {
    category: 'analytics tool',
    plural: { en: 'analytics tools', de: 'Analyse-Tools', fr: "outils d'analyse" },
    criteria: {
      en: ['integrations', 'pricing', 'data privacy', 'ease of setup'],
      de: ['Integrationen', 'Preisgestaltung', 'Datenschutz', 'Einrichtung'],
      fr: ['les intégrations', 'la tarification', 'la confidentialité des données', 'la facilité de mise en place'],
    },
    competitors: ['Plotline Analytics', 'Tallyboard', 'Quanta Insights'],
    others: ['Chartwell Data', 'Beacon Metrics', 'Segmently'],
    kind: 'software',
    home: 'US',
  },
  Coffee: {
    category: 'coffee roaster',
    plural: { en: 'coffee roasters', de: 'Kaffeeröstereien', fr: 'torréfacteurs' },
    criteria: {
      en: ['freshness', 'range of single origins', 'subscription price', 'roast quality'],
      de: ['Frische', 'Auswahl an Single Origins', 'Abo-Preis', 'Röstqualität'],
      fr: ['la fraîcheur', "le choix d'origines", "le prix de l'abonnement", 'la régularité de la torréfaction'],
    },
    competitors: ['Copper Kettle Roasters', 'Ember & Oak Coffee', 'Highgrove Roastery'],
    others: ['Little Fox Coffee', 'Morning Harbor', 'Stonemill Beans'],
    kind: 'shop',
    ships: true,
    home: 'DE',
  },
  Solar: {
    category: 'solar installer',
    plural: { en: 'solar installers', de: 'Solarinstallateure', fr: 'installateurs solaires' },
    criteria: {
      en: ['installation time', 'warranty', 'price per kilowatt', 'financing options'],
      de: ['Installationsdauer', 'Garantie', 'Preis pro Kilowatt', 'Finanzierung'],
      fr: ["le délai d'installation", 'la garantie', 'le prix par kilowatt', 'les options de financement'],
    },
    competitors: ['Brightpath Solar', 'Sunvale Energy', 'Greenridge Power'],
    others: ['Daybreak Renewables', 'Clearsky Installers', 'Amber Grid'],
    kind: 'local',
    city: 'Hamburg',
    home: 'DE',
  },
  Travel: {
    category: 'travel agency',
    plural: { en: 'travel agencies', de: 'Reisebüros', fr: 'agences de voyage' },
    criteria: {
      en: ['package prices', 'customer service', 'flexible cancellation', 'choice of destinations'],
      de: ['Pauschalpreise', 'Kundenservice', 'flexible Stornierung', 'Auswahl an Reisezielen'],
      fr: ['le prix des forfaits', 'le service client', "l'annulation flexible", 'le choix de destinations'],
    },
    competitors: ['Wanderly Trips', 'Bluewave Holidays', 'Compass Rose Travel'],
    others: ['Globetrot Tours', 'Harbor & Hill', 'Meridian Escapes'],
    kind: 'shop',
    home: 'GB',
  },
  Dental: {
    category: 'dental clinic',
    plural: { en: 'dental clinics', de: 'Zahnarztpraxen', fr: 'cabinets dentaires' },
    criteria: {
      en: ['appointment availability', 'treatment prices', 'patient care', 'modern equipment'],
      de: ['Terminvergabe', 'Behandlungskosten', 'Patientenbetreuung', 'moderne Ausstattung'],
      fr: ['la disponibilité des rendez-vous', 'le prix des soins', "l'accueil des patients", "l'équipement moderne"],
    },
    competitors: ['Brightsmile Dental', 'Oakwood Dentistry', 'Pearl Street Dental'],
    others: ['Harbourside Dental', 'Riverside Smiles', 'Maple Dental Studio'],
    kind: 'local',
    city: 'Leeds',
    home: 'GB',
  },
  Fitness: {
    category: 'gym',
    plural: { en: 'gyms', de: 'Fitnessstudios', fr: 'salles de sport' },
    criteria: {
      en: ['membership price', 'class schedule', 'opening hours', 'equipment'],
      de: ['Mitgliedsbeitrag', 'Kursangebot', 'Öffnungszeiten', 'Geräteausstattung'],
      fr: ["le prix de l'abonnement", 'le planning des cours', "les horaires d'ouverture", "l'équipement"],
    },
    competitors: ['Ironclad Gym', 'Pulse Athletic Club', 'Northside Fitness'],
    others: ['Flexzone', 'Core Collective', 'Summit Strength'],
    kind: 'local',
    city: 'Denver',
    home: 'US',
  },
  Bakery: {
    category: 'bakery',
    plural: { en: 'bakeries', de: 'Bäckereien', fr: 'boulangeries' },
    criteria: {
      en: ['sourdough', 'morning freshness', 'cake orders', 'value for money'],
      de: ['Sauerteigbrot', 'Frische am Morgen', 'Tortenbestellungen', 'Preise'],
      fr: ['le pain au levain', 'la fraîcheur le matin', 'les commandes de gâteaux', 'les prix'],
    },
    competitors: ['Golden Crust Bakery', 'Flour & Fig', 'Old Mill Bakehouse'],
    others: ['Sunrise Patisserie', 'Crumb Corner', 'Hearthstone Breads'],
    kind: 'local',
    city: 'Portland',
    home: 'US',
  },
  Legal: {
    category: 'law firm',
    plural: { en: 'law firms', de: 'Anwaltskanzleien', fr: "cabinets d'avocats" },
    criteria: {
      en: ['fees', 'responsiveness', 'experience with similar cases', 'clear advice'],
      de: ['Honorare', 'Erreichbarkeit', 'Erfahrung mit ähnlichen Fällen', 'verständliche Beratung'],
      fr: ['les honoraires', 'la réactivité', "l'expérience de cas similaires", 'la clarté des conseils'],
    },
    competitors: ['Whitfield & Grant', 'Marlow Legal', 'Ashcombe Partners'],
    others: ['Hale & Borden', 'Carver Law Group', 'Linden Solicitors'],
    kind: 'local',
    city: 'Bristol',
    home: 'GB',
  },
  Homes: {
    category: 'home builder',
    plural: { en: 'home builders', de: 'Bauträger', fr: 'constructeurs de maisons' },
    criteria: {
      en: ['build quality', 'price per square foot', 'energy efficiency', 'schedule reliability'],
      de: ['Bauqualität', 'Preis pro Quadratmeter', 'Energieeffizienz', 'Termintreue'],
      fr: HOME_CRITERIA_FR,
    },
    competitors: ['Oakridge Homes', 'Harborview Builders', 'Stonegate Residences'],
    others: ['Cedarline Homes', 'Millbrook Builders', 'Westvale Homes'],
    kind: 'local',
    city: 'Austin',
    home: 'US',
  },
  Cosmetics: {
    category: 'cosmetics brand',
    plural: { en: 'cosmetics brands', de: 'Kosmetikmarken', fr: 'marques de cosmétiques' },
    criteria: {
      en: ['ingredients', 'shade range', 'price', 'sustainable packaging'],
      de: ['Inhaltsstoffe', 'Farbauswahl', 'Preis', 'nachhaltige Verpackung'],
      fr: ['les ingrédients', 'la gamme de teintes', 'le prix', "l'emballage durable"],
    },
    competitors: ['Lumiere Skin', 'Velvet Moss Beauty', 'Aurelia Cosmetics'],
    others: ['Petal Theory', 'Glow & Grace', 'Silk Season'],
    kind: 'shop',
    ships: true,
    home: 'FR',
  },
};

/** The market of a demo client, by the last word of its name ("Bluebird Coffee" sells coffee). */
/** The currency a client's ad accounts report in, by its home market. */
export const CURRENCY_OF_HOME: Record<Market['home'], string> = {
  US: 'USD',
  GB: 'GBP',
  DE: 'EUR',
  FR: 'EUR',
  NL: 'EUR',
};

export function marketOf(clientName: string): Market {
  return MARKETS[clientName.replace(/ \d+$/, '').split(' ').at(-1)!] ?? OUTDOOR;
}

/** The language a locale's answers are written in: its language subtag when the demo speaks it. */
export function languageOf(locale: string): Language {
  const language = locale.split('-')[0]!.toLowerCase();
  return language === 'de' || language === 'fr' ? language : 'en';
}

const HOME_ZONES: Record<Market['home'], string> = {
  US: 'America/New_York',
  DE: 'Europe/Berlin',
  GB: 'Europe/London',
  FR: 'Europe/Paris',
  NL: 'Europe/Amsterdam',
};
const CITY_ZONES: Record<string, string> = {
  Denver: 'America/Denver',
  Portland: 'America/Los_Angeles',
  Austin: 'America/Chicago',
};

/** Where a client's day begins and ends: its city's time zone, else its home country's. */
export function timeZoneOf(market: Market): string {
  return (market.city && CITY_ZONES[market.city]) || HOME_ZONES[market.home];
}
