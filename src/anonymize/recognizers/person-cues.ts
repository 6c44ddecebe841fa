/**
 * Context cues for the PERSON recognizer, matched against the folded text just before a token
 * (lower case, no accents). Strength decides what may follow: see person.ts.
 */

/** "me llamo …", "my name is …": the next words are a name whatever their case, unless they are common words. */
export const STRONG_CUE =
  /(?:^|[^\p{L}])(?:me llamo|se llama|te llamas|se llamaba|mi nombre es|mi nombre:|my name is|my name's|name is|nombre es|firmado|fdo\.?|firma)\s*:?\s*$/u;

/** Form fields and headers that introduce a name after a colon: "Nombre: …", "Titular: …", "From: …". */
const LABEL_FIELDS = [
  'nombre(?: completo)?',
  'nombre y apellidos',
  'apellidos?',
  'name',
  'full name',
  'first name',
  'last name',
  'surname',
  'titular(?: de la (?:cuenta|tarjeta|linea|poliza))?',
  'cardholder',
  'card holder',
  'account holder',
  'holder',
  'cliente',
  'clienta',
  'customer',
  'paciente',
  'patient',
  'contacto',
  'persona de contacto',
  'contact',
  'agente',
  'agent',
  'atendido por',
  'attended by',
  'handled by',
  'empleado',
  'empleada',
  'employee',
  'beneficiario',
  'beneficiaria',
  'beneficiary',
  'ordenante',
  'remitente',
  'sender',
  'destinatario',
  'destinataria',
  'recipient',
  'solicitante',
  'applicant',
  'de',
  'from',
  'para',
  'to',
  'cc',
  'attn',
  'a la atencion de',
  'atencion',
  'usuario',
  'usuaria',
  'user',
  'tecnico',
  'tecnica',
  'technician',
  'responsable',
  'firmante',
  'signed by',
  'conductor',
  'driver',
  'tutor',
  'autor',
  'author',
  'interesado',
  'interesada',
  'owner',
  'propietario',
  'propietaria',
  'asegurado',
  'asegurada',
  'tomador',
  'insured',
  'reported by',
  'reportado por',
  'assignee',
  'asignado a',
  'representante',
  'representative',
  'empleado/a',
];

/** Form fields and headers: "Nombre: …", "Titular: …", "From: …", "a nombre de …". */
export const LABEL_CUE = new RegExp(
  '(?:^|[\\s,;(|*"])(?:' +
    LABEL_FIELDS.join('|') +
    ')\\s*[:=]\\s*["*]?$|(?:^|[^\\p{L}])(?:a nombre de|en nombre de|on behalf of|de parte de|a la atencion de|attn\\.?|c/o|attention|atencion)\\s+$',
  'u',
);

/**
 * Every word of every field label (with the optional last letter dropped, "apellidos?" → "apellido" too): the word
 * before a colon can only end a label if it is one of these, so other colons ("Cliente: Hola") skip LABEL_CUE.
 */
export const LABEL_FIELD_WORDS = new Set(
  LABEL_FIELDS.flatMap((field) =>
    [...field.matchAll(/[a-z]+(\?)?/g)].flatMap(([w, optional]) => (optional ? [w.slice(0, -1), w.slice(0, -2)] : [w])),
  ),
);

/** Greetings, introductions and sign-offs: a following given name counts even in lower case ("hola rosa", "soy juan"). */
export const WEAK_CUE =
  /(?:^|[^\p{L}'])(?:soy|llamame|call me|ask for|pregunta por|preguntar por|i'm|i’m|im|i am|this is|it's|aqui|named|called|habla|hablas con|le atiende|te atiende|le saluda|te saluda|hola|hi|hello|hey|dear|estimado|estimada|estimados|estimadas|querido|querida|gracias|thanks|thank you|buenos dias|buenas tardes|buenas noches|buenas|good morning|good afternoon|good evening|adios|bye|atentamente|cordialmente|saludos|un saludo|regards|best regards|kind regards|best|cheers|sincerely|yours)\s*[,:]?\s*$/u;

const ES_ROLE_NOUNS =
  'cliente|clienta|usuario|usuaria|titular|paciente|tecnico|tecnica|agente|' +
  'empleado|empleada|companero|companera|jefe|jefa|vecino|vecina|madre|padre|marido|mujer|esposo|esposa|hijo|hija|hermano|hermana|' +
  'primo|prima|tio|tia|abuelo|abuela|pareja|novio|novia|amigo|amiga|suegro|suegra|cunado|cunada|inquilino|inquilina|casero|casera|' +
  'propietario|propietaria|repartidor|repartidora|comercial|gestor|gestora|asesor|asesora|administrador|administradora|abogado|abogada';
const EN_ROLE_NOUNS =
  'customer|client|user|patient|tenant|landlord|technician|engineer|agent|employee|colleague|' +
  'coworker|manager|boss|neighbour|neighbor|mother|father|mum|mom|dad|husband|wife|partner|son|daughter|brother|sister|cousin|' +
  'uncle|aunt|friend|flatmate|roommate|contractor|driver|courier|lawyer|accountant|assistant';
const ES_DETERMINERS = 'el|la|al|del|mi|tu|su|nuestro|nuestra|nuestros';
const EN_DETERMINERS = 'the|my|your|our|his|her|their';

/** Someone introduced by their role or relation: "mi prima Zuriñe", "the customer Ewa Nowak", "attention Dana Whitcombe". */
export const ROLE_CUE = new RegExp(
  '(?:^|[^\\p{L}])(?:' +
    [
      `(?:${ES_DETERMINERS}) (?:${ES_ROLE_NOUNS})`,
      `(?:${EN_DETERMINERS}) (?:${EN_ROLE_NOUNS})`,
      'customer',
      'cliente',
      'clienta',
      'attention',
      'atencion',
      'contact',
      'contacto',
      'por',
      'by',
    ].join('|') +
    ')\\s*,?\\s*$',
  'u',
);

/** A role in apposition right after a name: "Milagros, la vecina", "Grace my neighbour". Matched on the folded text after it. */
export const TRAILING_ROLE_CUE = new RegExp(
  `^\\s*,?\\s*(?:(?:${ES_DETERMINERS}|${EN_DETERMINERS})\\s+(?:${ES_ROLE_NOUNS}|${EN_ROLE_NOUNS}))(?![\\p{L}])`,
  'u',
);

/** A line that closes a message: the next line starts with the signer's name. */
export const CLOSING_LINE =
  /^\s*(?:atentamente|cordialmente|un saludo(?: cordial)?|saludos(?: cordiales)?|un abrazo|muchas gracias|gracias|best regards|kind regards|warm regards|regards|best wishes|best|sincerely|yours sincerely|yours truly|yours faithfully|cheers|thanks|thank you|many thanks|att\.?|fdo\.?|firmado|--)\s*[,.!]?\s*$/u;

/** Last words of each kind of cue: a cheap gate before running that kind's regex. */
const LAST_WORDS: Record<'strong' | 'label' | 'weak' | 'role', string> = {
  strong: "llamo llama llamas llamaba es is nombre name name's firmado fdo firma",
  label: 'de nombre attn o attention atencion',
  weak: "named called soy im i'm i’m am this it's is aqui habla con atiende saluda hola hi hello hey dear estimado estimada estimados estimadas querido querida gracias thanks you dias tardes noches buenas morning afternoon evening adios bye atentamente cordialmente saludos saludo regards best cheers sincerely yours llamame me por for",
  role: 'por by cliente clienta customer client user usuario usuaria titular paciente patient tecnico tecnica technician engineer agente agent empleado empleada employee companero companera colleague coworker jefe jefa manager boss vecino vecina neighbour neighbor madre padre mother father mum mom dad marido mujer husband wife esposo esposa partner pareja hijo hija son daughter hermano hermana brother sister primo prima cousin tio tia uncle aunt abuelo abuela amigo amiga friend novio novia flatmate roommate inquilino inquilina tenant landlord casero casera propietario propietaria repartidor repartidora driver courier contractor comercial gestor gestora asesor asesora administrador administradora abogado abogada lawyer accountant assistant suegro suegra cunado cunada attention atencion contact contacto',
};

export type CueKind = 'strong' | 'label' | 'weak' | 'role';

const CUE_LAST_WORDS = new Map<string, Set<CueKind>>();
for (const [kind, words] of Object.entries(LAST_WORDS) as Array<[CueKind, string]>) {
  for (const w of words.split(' ')) {
    let kinds = CUE_LAST_WORDS.get(w);
    if (!kinds) CUE_LAST_WORDS.set(w, (kinds = new Set()));
    kinds.add(kind);
  }
}

/**
 * Frequent words that end a cue only after one particular word ("mi nombre es", "de parte de", "thank you"): the
 * cue regexes run only when the word before is one of these, not after every "de" or "es" in the text.
 */
const PAIRED_LAST_WORDS = new Map<string, Set<string>>(
  Object.entries({
    de: 'nombre parte atencion',
    es: 'nombre',
    is: 'name this',
    me: 'call',
    for: 'ask',
    you: 'thank',
    con: 'hablas',
    am: 'i',
    o: 'c',
    dias: 'buenos',
    tardes: 'buenas',
    noches: 'buenas',
    morning: 'good',
    afternoon: 'good',
    evening: 'good',
  }).map(([last, before]) => [last, new Set(before.split(' '))]),
);

/** Every word that can end a cue. */
export function cueLastWords(): string[] {
  return [...CUE_LAST_WORDS.keys()];
}

/**
 * Kinds of cue that may end with `lastKey` (a folded word); undefined when none. `beforeKey` gives the folded word
 * before it, asked only for the few last words that need one.
 */
export function cueKindsEnding(lastKey: string, beforeKey: () => string | undefined): Set<CueKind> | undefined {
  const kinds = CUE_LAST_WORDS.get(lastKey);
  if (kinds === undefined) return undefined;
  const paired = PAIRED_LAST_WORDS.get(lastKey);
  if (paired === undefined) return kinds;
  const before = beforeKey();
  return before !== undefined && paired.has(before) ? kinds : undefined;
}

/** Words after which capitalised names belong to a place or an institution ("Hospital Gregorio Marañón", "Calle Juan Bravo"). */
export const PLACE_WORDS = new Set(
  `calle c avenida avda av plaza pza paseo ronda via glorieta carretera camino travesia avinguda carrer placa passeig rambla
hospital clinica colegio instituto ies ceip cp universidad facultad fundacion estadio aeropuerto estacion museo teatro parque
premio ley banco edificio centro farmacia restaurante hotel bar cafeteria libreria barrio puente torre iglesia catedral basilica
ermita capilla parroquia polideportivo pabellon residencia metro linea auditorio palacio castillo monasterio convento
biblioteca escuela academia sala galeria cine mercado puerto cabo isla lago monte sierra rio playa valle
street st avenue ave road rd lane drive boulevard hospital school college university foundation museum stadium airport
station park award prize bridge tower church cathedral hotel bank theatre theater center centre institute building hall
gallery library campus mount lake cape port fort river beach
san santa santo sant saint sao
hermanos hnos talleres taller grupo construcciones transportes inversiones distribuciones asesoria gestoria consultora
inmobiliaria industrias laboratorios bodegas autos ferreteria panaderia hostal estudio academia clinica brothers bros sons group
holdings partners associates labs systems solutions motors foods services capital ventures studio
joyeria zapateria floristeria carniceria pescaderia fruteria peluqueria optica perfumeria drogueria papeleria jugueteria
tintoreria lavanderia muebles confiteria pasteleria bodega marisqueria asador taberna meson tienda tiendas almacenes
jewellers jewelers bakery pharmacy salon boutique cafe restaurant pub shop store stores market garage outlet`.split(
    /\s+/,
  ),
);

/** Words that turn a preceding name into a place: "Victoria Station", "Rose Garden", "Santiago Bernabéu Stadium". */
export const TRAILING_PLACE_WORDS = new Set(
  `station park garden gardens street road avenue stadium hospital museum bridge tower square centre center airport university
college school hotel theatre theater gallery library mall estadio museo parque jardin jardines puente estacion aeropuerto
universidad colegio instituto teatro biblioteca galeria hospice infirmary clinic clinica surgery trust memorial institute
foundation fundacion academy hall building house arena`.split(/\s+/),
);

/**
 * Company-form words that end an organisation's name ("Warren Hughes Ltd", "Miriam Oakes Inc."): a name never runs
 * into one, and a name right before one is the organisation's.
 */
export const COMPANY_WORDS = new Set(
  'ltd limited inc incorporated corp corporation plc llc llp gmbh ag bv nv srl sas sarl spa'.split(' '),
);

/** What follows an organisation's name: "García y Asociados", "Smith & Co", "Pérez S.L.". */
export const COMPANY_SUFFIX =
  /^(?:\s*,)?\s*(?:S\.?\s?A\.?(?:U\.?)?|S\.?\s?L\.?(?:U\.?|L\.?)?|S\.?\s?Coop\.?|Inc\.?|Ltd\.?|LLC|LLP|GmbH|PLC|plc|Corp\.?|Co\.|&|y Asociados|Asociados|Abogados|Consulting|Consultores|Group|Grupo|Hermanos|Hnos\.?|e Hijos|and Sons|& Sons|Partners|Holdings|Foundation|Fundación)(?![\p{L}])/u;

/** A name used as a brand: "my John Lewis order", "Tío Pepe items" (sticky, at the end of the name, on the raw text). */
export const BRAND_AFTER =
  /\s(?:order|orders|store|stores|shop|items|products|gift card|voucher|outlet|website|app|loyalty|catalogue|catalog|pedido|pedidos|tienda|productos|art[ií]culos|cat[aá]logo)(?![\p{L}])/iuy;
/** A name introduced as a brand or shop: "la tienda de Tío Pepe", "the brand Carolina Herrera", "marca …" (raw text before the name). */
export const BRAND_BEFORE =
  /(?:^|[^\p{L}])(?:tienda de|tiendas de|la marca|de la marca|marca|the brand|brand|store|shop|los productos de|products from|comprado en|compr[eé] en|bought at|bought from|ordered from|pedido en|pedido a)\s*$/iu;
