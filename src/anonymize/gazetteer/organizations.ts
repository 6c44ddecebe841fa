/**
 * Well-known organisations, brands, places and towns named after people: a PERSON candidate equal to one of these
 * stays ("Morgan Stanley", "Tuxtla Gutiérrez"; "Hospital Gregorio Marañón" is handled by the place words in person
 * cues). Folded, one per line.
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
john lewis
carolina herrera
dr oetker
tio pepe
wendy's
mcdonald's
kellogg's
sainsbury's
macy's
domino's
dunkin donuts
ben sherman
fred perry
ted baker
paul smith
stella mccartney
vivienne westwood
alexander mcqueen
jimmy choo
manolo blahnik
coco chanel
christian dior
yves saint laurent
jean paul gaultier
giorgio armani
gianni versace
salvatore ferragamo
michael kors
kate spade
tory burch
donna karan
elizabeth arden
helena rubinstein
max factor
paco rabanne
oscar de la renta
adolfo dominguez
purificacion garcia
roberto verino
pedro del hierro
agatha ruiz de la prada
marques de riscal
marques de caceres
ramon bilbao
don simon
juan valdez
johnnie walker
jack daniel's
jim beam
john deere
levi strauss
martha stewart
warner bros
ronald mcdonald
sara lee
betty crocker
marc jacobs
tom ford
vera wang
diane von furstenberg
christian louboutin
emporio armani
roberto cavalli
pierre cardin
nina ricci
karl lagerfeld
kenneth cole
anne klein
alexander wang
isabel marant
sonia rykiel
jo malone
charlotte tilbury
bobbi brown
laura ashley
karen millen
jack wills
harvey nichols
jesus del pozo
victorio lucchino
angel schlesser
lorenzo caprile
cristobal balenciaga
felipe varela
stella artois
jose cuervo
uncle ben's
aunt jemima
little debbie
chef boyardee
orville redenbacher
papa john's
carl's jr
arby's
denny's
baskin robbins
merrill lynch
lehman brothers
dow jones
arthur andersen
price waterhouse
hewlett packard
thomas cook
howard johnson
ritz carlton
miguel torres
gonzalez byass
leche pascual
casa tarradellas
maria cristina
tuxtla gutierrez
lazaro cardenas
florencio varela
esteban echeverria
pedro juan caballero
villa carlos paz
carlos paz
benito juarez
comodoro rivadavia
general roca
ciudad juarez
jose c paz
marcos paz
salvador de bahia
joao pessoa
presidente prudente
puerto vallarta
ciudad victoria
san martin
`;

/**
 * Software, languages, databases and services whose names are also given names or surnames ("Julia", "Hugo",
 * "Jenkins", "Cassandra", "Kafka"): a lone occurrence without a cue is the technology. Folded, whitespace separated.
 */
export const TECHNOLOGIES = `
julia hugo ruby jenkins cassandra kafka travis django flask redis ansible celery sentry heroku jira confluence
bamboo watson siri alexa cortana claude gemini mistral llama ollama apollo atlas athena aurora hermes ray luigi
jasmine karma selenium ember phoenix spring nginx apache oracle maria mariadb jupyter zeppelin superset looker
tableau grafana kibana prometheus thanos loki tempo jaeger zipkin envoy istio linkerd traefik kong consul vault
nomad terraform packer vagrant docker kubernetes helm argo flux tekton drone gitea gitlab github bitbucket keycloak
qdrant milvus pinecone weaviate chroma hadoop spark flink storm beam airflow dagster prefect kedro polars pandas
dask arrow parquet avro presto trino druid pinot clickhouse snowflake databricks scala kotlin swift rust perl lua
dart elixir erlang haskell crystal nim zig ada pascal delphi cobol fortran lisp clojure rails laravel symfony
express nest next nuxt remix astro svelte angular react vue gatsby jekyll ghost drupal joomla magento shopify
stripe twilio zendesk freshdesk hubspot mailchimp sendgrid postmark segment mixpanel amplitude hotjar
`;
