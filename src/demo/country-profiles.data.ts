import type { NamePool } from './name-pool.types';
import { AFRICA_AMERICAS_NAME_POOLS } from './names-africa-americas.data';
import { ASIA_OCEANIA_NAME_POOLS } from './names-asia-oceania.data';
import { EUROPE_NAME_POOLS } from './names-europe.data';
import type { Discipline } from './reference.data';

export const NAME_POOLS: Readonly<Record<string, NamePool>> = {
  ...EUROPE_NAME_POOLS,
  ...AFRICA_AMERICAS_NAME_POOLS,
  ...ASIA_OCEANIA_NAME_POOLS,
};

export interface CountryProfile {
  /** Relative size of the country's federation: how many demo fighters it gets. */
  weight: number;
  /** Disciplines the country is known for; they get a larger share of its fighters. */
  strong: readonly Discipline[];
  dial: string;
  /** Real cities, used for event venues and fighters' addresses. */
  cities: readonly string[];
  /** Name pools and their shares: a country's fighters are not all of one heritage. */
  pools: readonly (readonly [string, number])[];
}

export const COUNTRY_PROFILES: Readonly<Record<string, CountryProfile>> = {
  germany: { weight: 6, strong: ['kickboxing'], dial: '49', cities: ['Berlin', 'Hamburg', 'Munich', 'Cologne', 'Frankfurt', 'Düsseldorf', 'Stuttgart'], pools: [['de', 0.85], ['tr', 0.15]] },
  france: { weight: 5, strong: ['kickboxing', 'mma'], dial: '33', cities: ['Paris', 'Marseille', 'Lyon', 'Toulouse', 'Nice', 'Lille', 'Bordeaux'], pools: [['fr', 0.82], ['maghreb', 0.18]] },
  'united-kingdom': { weight: 6, strong: ['boxing', 'mma'], dial: '44', cities: ['London', 'Manchester', 'Birmingham', 'Liverpool', 'Glasgow', 'Cardiff', 'Leeds'], pools: [['en', 1]] },
  ireland: { weight: 2, strong: ['boxing', 'mma'], dial: '353', cities: ['Dublin', 'Cork', 'Limerick', 'Galway'], pools: [['ie', 1]] },
  spain: { weight: 4, strong: ['kickboxing'], dial: '34', cities: ['Madrid', 'Barcelona', 'Valencia', 'Seville', 'Málaga', 'Bilbao'], pools: [['es', 1]] },
  portugal: { weight: 2, strong: ['kickboxing'], dial: '351', cities: ['Lisbon', 'Porto', 'Braga', 'Coimbra', 'Faro'], pools: [['pt', 1]] },
  italy: { weight: 4, strong: ['kickboxing', 'boxing'], dial: '39', cities: ['Rome', 'Milan', 'Naples', 'Turin', 'Bologna', 'Florence'], pools: [['it', 1]] },
  netherlands: { weight: 4, strong: ['kickboxing'], dial: '31', cities: ['Amsterdam', 'Rotterdam', 'The Hague', 'Utrecht', 'Eindhoven', 'Breda'], pools: [['nl', 0.8], ['maghreb', 0.2]] },
  belgium: { weight: 2, strong: ['kickboxing'], dial: '32', cities: ['Brussels', 'Antwerp', 'Ghent', 'Liège', 'Charleroi'], pools: [['nl', 0.5], ['fr', 0.4], ['maghreb', 0.1]] },
  poland: { weight: 4, strong: ['mma', 'kickboxing'], dial: '48', cities: ['Warsaw', 'Kraków', 'Łódź', 'Wrocław', 'Poznań', 'Gdańsk'], pools: [['pl', 1]] },
  sweden: { weight: 2, strong: ['mma'], dial: '46', cities: ['Stockholm', 'Gothenburg', 'Malmö', 'Uppsala'], pools: [['se', 1]] },
  ukraine: { weight: 4, strong: ['boxing', 'kickboxing'], dial: '380', cities: ['Kyiv', 'Kharkiv', 'Odesa', 'Lviv', 'Dnipro'], pools: [['ua', 1]] },
  serbia: { weight: 2, strong: ['kickboxing'], dial: '381', cities: ['Belgrade', 'Novi Sad', 'Niš', 'Kragujevac'], pools: [['rs', 1]] },
  turkiye: { weight: 4, strong: ['kickboxing', 'boxing'], dial: '90', cities: ['Istanbul', 'Ankara', 'İzmir', 'Antalya', 'Bursa'], pools: [['tr', 1]] },
  greece: { weight: 2, strong: ['kickboxing'], dial: '30', cities: ['Athens', 'Thessaloniki', 'Patras', 'Heraklion'], pools: [['gr', 1]] },
  japan: { weight: 4, strong: ['kickboxing', 'mma'], dial: '81', cities: ['Tokyo', 'Osaka', 'Nagoya', 'Yokohama', 'Fukuoka', 'Saitama'], pools: [['ja', 1]] },
  china: { weight: 4, strong: ['mma', 'kickboxing'], dial: '86', cities: ['Beijing', 'Shanghai', 'Guangzhou', 'Shenzhen', 'Chengdu', "Xi'an"], pools: [['zh', 1]] },
  'south-korea': { weight: 2, strong: ['mma'], dial: '82', cities: ['Seoul', 'Busan', 'Incheon', 'Daegu'], pools: [['ko', 1]] },
  thailand: { weight: 5, strong: ['muay-thai'], dial: '66', cities: ['Bangkok', 'Chiang Mai', 'Phuket', 'Pattaya', 'Khon Kaen'], pools: [['th', 1]] },
  vietnam: { weight: 2, strong: ['muay-thai'], dial: '84', cities: ['Hanoi', 'Ho Chi Minh City', 'Da Nang', 'Haiphong'], pools: [['vi', 1]] },
  philippines: { weight: 3, strong: ['boxing'], dial: '63', cities: ['Manila', 'Cebu City', 'Davao City', 'Quezon City', 'General Santos'], pools: [['ph', 1]] },
  india: { weight: 3, strong: ['boxing'], dial: '91', cities: ['New Delhi', 'Mumbai', 'Bengaluru', 'Kolkata', 'Chennai', 'Hyderabad'], pools: [['in', 1]] },
  kazakhstan: { weight: 3, strong: ['boxing'], dial: '7', cities: ['Almaty', 'Astana', 'Shymkent', 'Karaganda'], pools: [['central-asia', 1]] },
  uzbekistan: { weight: 2, strong: ['boxing'], dial: '998', cities: ['Tashkent', 'Samarkand', 'Bukhara', 'Namangan'], pools: [['central-asia', 1]] },
  indonesia: { weight: 2, strong: [], dial: '62', cities: ['Jakarta', 'Surabaya', 'Bandung', 'Denpasar', 'Medan'], pools: [['id', 1]] },
  nigeria: { weight: 3, strong: ['boxing', 'mma'], dial: '234', cities: ['Lagos', 'Abuja', 'Ibadan', 'Port Harcourt', 'Kano'], pools: [['ng', 1]] },
  ghana: { weight: 2, strong: ['boxing'], dial: '233', cities: ['Accra', 'Kumasi', 'Tamale', 'Takoradi'], pools: [['gh', 1]] },
  'cote-d-ivoire': { weight: 1.5, strong: ['kickboxing'], dial: '225', cities: ['Abidjan', 'Yamoussoukro', 'Bouaké', 'San-Pédro'], pools: [['ci', 1]] },
  senegal: { weight: 1.5, strong: ['mma'], dial: '221', cities: ['Dakar', 'Thiès', 'Saint-Louis', 'Ziguinchor'], pools: [['sn', 1]] },
  cameroon: { weight: 1.5, strong: ['mma', 'boxing'], dial: '237', cities: ['Yaoundé', 'Douala', 'Bafoussam', 'Garoua'], pools: [['cm', 1]] },
  morocco: { weight: 3, strong: ['kickboxing', 'muay-thai'], dial: '212', cities: ['Casablanca', 'Rabat', 'Marrakesh', 'Tangier', 'Agadir', 'Fez'], pools: [['maghreb', 1]] },
  egypt: { weight: 2, strong: ['kickboxing'], dial: '20', cities: ['Cairo', 'Alexandria', 'Giza', 'Sharm El Sheikh'], pools: [['egypt', 1]] },
  kenya: { weight: 1.5, strong: ['boxing'], dial: '254', cities: ['Nairobi', 'Mombasa', 'Kisumu', 'Nakuru'], pools: [['ke', 1]] },
  'south-africa': { weight: 3, strong: ['mma', 'boxing'], dial: '27', cities: ['Johannesburg', 'Cape Town', 'Durban', 'Pretoria', 'Bloemfontein'], pools: [['nguni', 0.5], ['afrikaans', 0.35], ['en', 0.15]] },
  'united-states': { weight: 7, strong: ['mma', 'boxing'], dial: '1', cities: ['Las Vegas', 'New York', 'Los Angeles', 'Chicago', 'Houston', 'Miami', 'Atlanta', 'Phoenix', 'Philadelphia', 'Denver'], pools: [['en', 0.78], ['es', 0.22]] },
  canada: { weight: 3, strong: ['mma'], dial: '1', cities: ['Toronto', 'Montreal', 'Vancouver', 'Calgary', 'Edmonton', 'Ottawa'], pools: [['en', 0.7], ['fr', 0.3]] },
  mexico: { weight: 4, strong: ['boxing'], dial: '52', cities: ['Mexico City', 'Guadalajara', 'Monterrey', 'Tijuana', 'Cancún', 'Puebla'], pools: [['es', 1]] },
  cuba: { weight: 2, strong: ['boxing'], dial: '53', cities: ['Havana', 'Santiago de Cuba', 'Camagüey', 'Holguín'], pools: [['es', 1]] },
  'dominican-republic': { weight: 1.5, strong: ['boxing'], dial: '1', cities: ['Santo Domingo', 'Santiago de los Caballeros', 'La Romana', 'Puerto Plata'], pools: [['es', 1]] },
  'puerto-rico': { weight: 1.5, strong: ['boxing'], dial: '1', cities: ['San Juan', 'Bayamón', 'Ponce', 'Carolina', 'Caguas'], pools: [['es', 1]] },
  jamaica: { weight: 1, strong: ['boxing'], dial: '1', cities: ['Kingston', 'Montego Bay', 'Spanish Town', 'Ocho Rios'], pools: [['jm', 1]] },
  panama: { weight: 1, strong: ['boxing'], dial: '507', cities: ['Panama City', 'Colón', 'David', 'Santiago de Veraguas'], pools: [['es', 1]] },
  brazil: { weight: 6, strong: ['mma', 'muay-thai'], dial: '55', cities: ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte', 'Curitiba', 'Salvador', 'Porto Alegre', 'Manaus', 'Fortaleza'], pools: [['br', 1]] },
  argentina: { weight: 3, strong: ['boxing'], dial: '54', cities: ['Buenos Aires', 'Córdoba', 'Rosario', 'Mendoza', 'La Plata', 'Mar del Plata'], pools: [['es', 0.9], ['it', 0.1]] },
  colombia: { weight: 2, strong: ['boxing'], dial: '57', cities: ['Bogotá', 'Medellín', 'Cali', 'Barranquilla', 'Cartagena'], pools: [['es', 1]] },
  chile: { weight: 1.5, strong: [], dial: '56', cities: ['Santiago', 'Valparaíso', 'Concepción', 'Antofagasta'], pools: [['es', 1]] },
  peru: { weight: 1.5, strong: ['mma'], dial: '51', cities: ['Lima', 'Arequipa', 'Trujillo', 'Cusco'], pools: [['es', 1]] },
  venezuela: { weight: 1.5, strong: ['boxing'], dial: '58', cities: ['Caracas', 'Maracaibo', 'Valencia', 'Barquisimeto'], pools: [['es', 1]] },
  ecuador: { weight: 1, strong: [], dial: '593', cities: ['Quito', 'Guayaquil', 'Cuenca', 'Manta'], pools: [['es', 1]] },
  uruguay: { weight: 1, strong: [], dial: '598', cities: ['Montevideo', 'Salto', 'Punta del Este', 'Paysandú'], pools: [['es', 1]] },
  australia: { weight: 4, strong: ['muay-thai', 'mma'], dial: '61', cities: ['Sydney', 'Melbourne', 'Brisbane', 'Perth', 'Adelaide', 'Gold Coast'], pools: [['en', 0.85], ['polynesia', 0.08], ['gr', 0.07]] },
  'new-zealand': { weight: 2, strong: ['kickboxing', 'mma'], dial: '64', cities: ['Auckland', 'Wellington', 'Christchurch', 'Hamilton', 'Dunedin'], pools: [['en', 0.5], ['maori', 0.35], ['polynesia', 0.15]] },
  fiji: { weight: 1, strong: ['boxing'], dial: '679', cities: ['Suva', 'Nadi', 'Lautoka', 'Labasa'], pools: [['fiji', 1]] },
  samoa: { weight: 1, strong: ['boxing'], dial: '685', cities: ['Apia', 'Salelologa', 'Faleula'], pools: [['polynesia', 1]] },
  tonga: { weight: 1, strong: ['boxing'], dial: '676', cities: ["Nuku'alofa", 'Neiafu', 'Pangai'], pools: [['polynesia', 1]] },
  'papua-new-guinea': { weight: 1, strong: ['boxing'], dial: '675', cities: ['Port Moresby', 'Lae', 'Mount Hagen', 'Madang', 'Goroka'], pools: [['melanesia', 1]] },
};

/** Ring names, a few of them in the languages of the countries that use them most. */
export const NICKNAMES: readonly string[] = [
  'The Hammer', 'Iron', 'The Natural', 'Lightning', 'The Machine', 'Thunder', 'The Technician', 'Storm',
  'The Viper', 'Bulldozer', 'The Surgeon', 'Mad Dog', 'Showtime', 'The Professor', 'Dynamite', 'The Tank',
  'Rocket', 'Silk', 'The Sniper', 'Phantom', 'The Butcher', 'Hurricane', 'Steel', 'The Wolf', 'Cobra',
  'The Prodigy', 'Tornado', 'Diamond', 'The Executioner', 'Lionheart', 'The Falcon', 'Blade', 'The Beast',
  'Kid Dynamite', 'The Bull', 'Panther', 'The Assassin', 'Smokin', 'Golden Boy', 'The Spider', 'Zeus',
  'Pitbull', 'The Hitman', 'Ice', 'The Matador', 'Tiger', 'The Gladiator', 'Nightmare', 'Bronco',
  'El Toro', 'La Bala', 'El Matador', 'Dinamita', 'El Chacal', 'La Fiera', 'Furacão', 'Cyborg', 'Pantera',
  'Der Bomber', 'Le Sorcier', 'Kaiser', 'Il Lupo', 'Samurai', 'Ronin', 'Chok Dee', 'Kru',
  'Black Mamba', 'The Warrior', 'Tsunami', 'Mana', 'Taniwha', 'The Shark', 'Kodiak',
];
