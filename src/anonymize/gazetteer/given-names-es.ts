/** Given names common in Spain and Latin America, including Catalan, Basque and Galician forms. Whitespace separated. */
export const GIVEN_NAMES_ES = `
Aarón Abel Abelardo Abraham Adán Adolfo Adrián Adriana Agustín Agustina Aida Ainara Ainhoa Aitana Aitor Alba Albert Alberto
Albert Alejandra Alejandro Alejo Alex Álex Alexandra Alexis Alfonso Alfredo Alicia Alma Almudena Alonso Álvaro Amaia Amaya
Amalia Amanda Amelia Amparo Ana Anabel Anastasia Andrea Andrés Ángel Ángela Ángeles Angélica Aníbal Anna Antonia Antonio
Araceli Arantxa Arantza Ariadna Ariel Armando Arnau Arturo Asier Asunción Aurelio Aurora Azucena Bárbara Baltasar Beatriz
Begoña Belén Benito Benjamín Berta Bernardo Blanca Borja Bruno Camila Camilo Candela Carla Carles Carlos Carlota Carmela Carmelo
Carmen Carolina Casimiro Catalina Cayetana Cayetano Cecilia Celia Celestino César Chema Cintia Cinthia Claudia Claudio Clemente
Concepción Concha Conchita Consuelo Cristian Cristina Cristóbal Custodio Dámaso Damián Daniel Daniela Dario Darío David Débora
Delia Diana Diego Dionisio Dolores Domingo Dora Dulce Edgar Edgardo Eduardo Elena Eladio Eleuterio Elías Eloísa Elisa Elisabet
Eloy Elsa Elvira Emilia Emiliano Emilio Encarnación Encarna Enrique Erica Érica Erika Ernesto Esperanza Esteban Estefanía Ester
Esther Eugenia Eugenio Eulalia Eusebio Eva Evaristo Ezequiel Fabián Fabiola Fausto Federico Felipe Félix Fermín Fernando Fidel
Francisca Francisco Francesc Fran Paco Pancho Gabriel Gabriela Gaspar Gema Gemma Genaro Gerardo Germán Gilberto Gisela Gloria
Gonzalo Gorka Graciela Gregorio Guadalupe Guillermo Gustavo Héctor Helena Heriberto Hernán Higinio Hilario Hugo Humberto Ibai
Iker Ignacio Igor Imanol Inés Inmaculada Inma Irene Iratxe Iris Isaac Isabel Isaías Isidro Ismael Itziar Iván Izaskun Jacinto
Jacobo Jaime Jaume Javier Jenifer Jennifer Jerónimo Jesús Joan Joaquín Joaquim Joel Jon Jordi Jorge José Josefa Josefina Josep
Josu Juan Juana Julia Julián Juliana Julio Justo Karina Karla Laia Laura Leandro Leire Leo Leocadia Leonardo Leonor Leopoldo
Leticia Lidia Lilia Lola Lorena Lorenzo Lourdes Lucas Lucía Luciano Lucila Luis Luisa Luna Macarena Magdalena Maite Manolo
Manuel Manuela Mar Marc Marcela Marcelo Marcelino Marco Marcos Margarita Mari María Mariana Mariano Maribel Marina Mario Marisa
Marisol Marta Martí Martín Martina Mateo Matías Maximiliano Máximo Mayte Melany Mercè Mercedes Meritxell Micaela Miguel Milagros
Mireia Miren Miriam Modesto Mohamed Moisés Mónica Montse Montserrat Nacho Nadia Natalia Nerea Nicolás Nieves Noa Noelia Noemí
Nora Norberto Núria Nuria Octavio Olga Óliver Olivia Omar Óscar Oriol Pablo Paloma Pascual Patricia Patricio Paula Paulina
Pedro Pepa Pepe Pere Pilar Pol Purificación Rafael Rafa Raimundo Ramiro Ramón Raquel Raúl Rebeca Remedios Renata Ricardo
Roberto Rocío Rodolfo Rodrigo Rogelio Rolando Román Romina Rosa Rosalía Rosana Rosario Rubén Ruth Sabrina Salvador Samanta
Samuel Sancho Sandra Santiago Sara Saúl Sebastián Sergi Sergio Silvia Simón Sofía Sol Soledad Sonia Susana Tamara Tatiana
Teodoro Teresa Tomás Toni Trinidad Ulises Unai Uxue Valentín Valentina Valeria Vanesa Vanessa Verónica Vicenta Vicente Víctor
Victoria Vidal Virginia Xavier Xavi Ximena Xabier Xiana Xoán Yolanda Yaiza Yasmina Zaira Zoe Zoraida Adela Agapito Aitziber
Alazne Amador Ambrosio Anselmo Apolonia Ascensión Baldomero Basilio Bautista Bonifacio Brígida Cándido Candelaria Casandra Ceferino
Cipriano Cirilo Crescencia Desiderio Donato Edelmira Elías Eliseo Emeterio Epifanio Esperanza Estanislao Eufemia Evangelina
Faustino Felicidad Felisa Filomena Florencio Florentino Fortunato Fructuoso Genoveva Gerónimo Gertrudis Gil Gracia Herminia
Hortensia Ildefonso Inocencio Isidoro Jacinta Jenaro Jesusa Joaquina Juliana Leocadio Leoncio Librada Lucrecia Marcial Matilde
Maximino Melchor Nemesio Nicanor Obdulia Onofre Pancracio Petra Petronila Primitivo Prudencio Rufino Sagrario Saturnino
Segismundo Severiano Simona Sixto Tadeo Teófilo Tiburcio Valeriano Venancio Wenceslao Zacarías Abril Aina Alma Ane Ariadna Bruna
Chloe Ekaitz Enzo Eneko Gael Iñaki Iñigo Irati Jana Izan Leyre Lía Naia Nahia Nil Oihane Oier Olaia Paulo Thiago Uriel Vega
Xènia Yeray Ainoa Alicia Cloe Dylan Erik Gala Hugo Iara Kevin Lara Maia Mara Neizan Noah Noelia Pau Rayan Salma Ulises Yago
Brenda Cinthya Dayana Fabricio Franco Facundo Florencia Guadalupe Jazmín Joaquina Josué Lautaro Luciana Marisela Milagros Mirta
Nahuel Rocío Santino Thalía Ximena Yesenia Yuliana Wilson Wilmer Yadira Yamileth Deyanira Elizabeth Eduvigis Jhon Jhonny
Edwin Fredy Yurany Dairo Nelson Heidy Stiven Brayan Kendry Anderson Jefferson Maryuri Leidy Yeison Aldo Ulises Anahí
Ana Belén Marisa Loli Puri Encarni Reme Rosi Pili Merche Conchi Charo Nati Vane Sonsoles Esperanza Begoña Lucas Unax Asier Amets
Amaiur Garazi Haizea Idoia Iraia Itxaso Josune Maialen Nekane Oihana Uxia Xulia Antía Breixo Brais Roi Uxío Iago Anxo Xurxo Xosé
Montserrat Núria Roser Neus Queralt Montse Pilar Laia Berta Arlet Txema Koldo Mikel Xabi Andoni Aritz Jokin Patxi Gaizka Julen
Ander Eider Nagore
Paqui Toño Manoli Juanma Josema Chus Quique Kike Nando Lucho Chelo Chari Maricarmen Mariló Marijose Tere Fede Santi Rober
Alfredo Moncho Pachi Paco Curro Quico Tito Toñi Geli Inma Lupe Lupita Chuy Memo Beto Nacho Chente
Loreto Covadonga Luz Caridad Celeste Libertad
`;
