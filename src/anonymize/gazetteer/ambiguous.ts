/**
 * Names that are also ordinary words, months, places or brands ("rosa", "mayo", "Will", "May", "Victoria", "Mercedes").
 * Alone they are left as they are; next to a real surname, a title or a cue ("Hola Rosa", "Sra. Victoria Blanco")
 * they count. Folded (lower case, no accents). Whitespace separated.
 */
export const AMBIGUOUS_NAMES = `
rosa sol luz paz mar alba aurora blanca clara pilar dolores amparo consuelo soledad esperanza victoria gloria mercedes rocio
nieves cruz reyes asuncion concepcion encarnacion inmaculada purificacion remedios milagros angeles trinidad salvador jesus
angel santiago domingo modesto justo clemente felicidad gracia candela luna estrella paloma margarita azucena dulce alma vega
abril lourdes fatima guadalupe montserrat begona covadonga loreto belen sagrario pascual sancho fe caridad celeste iris
libertad amor primitivo fortunato inocencio maximo bonifacio marino franco leal real mayo marzo junio julio agosto
will may mark bill grace hope faith joy amber ruby daisy violet hazel ivy holly rose lily jasmine summer june april august
dawn destiny serenity trinity skylar piper paisley stella sky autumn heather olive pearl crystal sandy penny bob jack jean
frank carl dean gene guy ray rob pat sue art don dale glen cliff rich norman lance wade drew reed chad max miles grant chase
lane page blake quinn hunter parker mason carter taylor austin jordan lincoln madison chelsea hudson dakota savannah sydney
paris florence florencia georgia virginia carolina nancy victoria brooke sage river rain storm ash ace brand cash price
king young long short small little love day white black green brown gray grey west east north south bell hall hill wood
stone banks park wall horn snow winter sommer engel fox wolf graf marsh drake hood gates clay mann moss tate cole rice hunt
mills fields ball bush hardy todd blair potter cannon flowers moody pope wise gill waters brady french bass sharp cook baker
carpenter weaver farmer gardner fisher walker turner porter miller mason cross power rose rivers shepherd bond booth lamb
joy nash ward marshall bishop steele major prince duke earl bliss noble
blanco moreno rubio rico bueno bravo calvo cano delgado rey conde abad alcalde maestro sastre pastor herrero plaza mesa costa
sierra valle olmo prado pozo puente rios campos casas cuevas fuentes montes llanos lagos flores rosales naranjo oliva palma
trigo roca torres castillo iglesias palacios santos ventura lobo toro cordero romero pardo rojo moral mata pena vera mora soto
ramos guerra cortes marcos benito simon gil mas sala serra font coll mir ros grau pons vila vilar puig roig riera company camino
espada espejo maestre moral cabello cabezas calleja cuesta espinosa garrido hidalgo jurado lozano manzano merino nieto parra
pena redondo segura serrano soler trujillo valiente vaquero villa medina leon toledo soria zamora avila segovia cuenca palencia
jaen madrid valencia sevilla burgos bilbao zaragoza granada cordoba malaga cadiz huelva almeria murcia alicante castellon
tarragona lleida girona barcelona navarra aragon castilla galicia asturias cantabria rioja teruel huesca lugo ourense orense
pontevedra coruna caceres badajoz salamanca valladolid albacete ciudad real guadalajara tenerife canarias baleares mallorca
menca ibiza ceuta melilla alcala getafe mostoles leganes fuenlabrada elche gijon oviedo vigo santander logrono pamplona
vitoria donostia irun estella tudela olot reus manresa terrassa sabadell badalona hospitalet mataro marbella estepona
benidorm torrevieja lorca cartagena merida linares ubeda ronda antequera jerez algeciras motril andujar baza guadix
lisboa london londres berlin roma rome milan milano napoles naples florencia venecia venice viena vienna praga prague
dublin edinburgh glasgow manchester liverpool oxford cambridge york boston chicago denver dallas houston phoenix atlanta
orlando miami seattle portland austin nashville memphis detroit cleveland columbus charlotte richmond raleigh jackson
washington jefferson lincoln franklin hamilton madison monroe kennedy reagan clinton nixon carter
mexico chile peru colombia argentina bolivia ecuador uruguay paraguay venezuela cuba panama honduras guatemala salvador
nicaragua espana francia alemania italia portugal inglaterra irlanda escocia holanda belgica suiza austria grecia turquia
china japon india rusia brasil canada australia america europa africa asia
zara alexa siri cortana tesla ferrari lamborghini porsche ford dell chanel gucci prada dior armani versace ferrero barbie
disney boeing airbus adidas puma nike kellogg renault peugeot opel seat michelin philips siemens bosch santander bankinter
iberdrola endesa repsol movistar vodafone orange mapfre mango amazon google apple microsoft oracle visa mastercard paypal bizum
glovo cabify uber wallapop correos renfe iberia vueling ryanair mercadona carrefour lidl aldi dia eroski decathlon ikea
jazztel pepephone digi lowi yoigo masmovil simyo orange telefonica naturgy caixabank bbva unicaja kutxabank abanca ibercaja
openbank evo ing revolut n26 wise sabadell liberbank cajamar bankia mutua sanitas adeslas asisa dkv axa allianz generali
linea directa verti santalucia ocaso catalana occidente
christian christmas navidad pascua easter semana santa san santa santo sant saint
nil gala pau ion said ama jun rosario concha librada maya marina leo oscar cesar ariel
`;
