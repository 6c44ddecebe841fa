/**
 * Well-known organisations, brands and places named after people: a PERSON candidate equal to one of these stays
 * ("Morgan Stanley", "Hospital Gregorio Marañón" is handled by the place words in person cues). Folded, one per line.
 */
export const ORGANIZATIONS = `
morgan stanley
louis vuitton
calvin klein
hugo boss
ralph lauren
tommy hilfiger
estee lauder
harley davidson
rolls royce
aston martin
alfa romeo
mercedes benz
massimo dutti
walt disney
johnson johnson
procter gamble
goldman sachs
dolce gabbana
marks spencer
leroy merlin
ramon y cajal
gregorio maranon
santiago bernabeu
vicente calderon
juan carlos
miguel servet
carlos haya
virgen del rocio
jp morgan
charles schwab
wells fargo
kelly services
ernst young
tim hortons
ben jerry
martin luther king
george washington
abraham lincoln
francisco franco
pablo picasso
salvador dali
miguel de cervantes
federico garcia lorca
antonio machado
joan miro
antoni gaudi
rafael nadal
fernando alonso
carlos sainz
lionel messi
cristiano ronaldo
`;
