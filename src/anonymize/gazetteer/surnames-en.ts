/** Surnames common in English-speaking countries plus frequent European, Arabic and Asian ones. Whitespace separated. */
export const SURNAMES_EN = `
Smith Johnson Williams Jones Brown Davis Miller Wilson Moore Taylor Anderson Thomas Jackson White Harris Martin Thompson
Robinson Clark Lewis Lee Walker Hall Allen Young King Wright Scott Green Baker Adams Nelson Hill Campbell Mitchell Roberts
Carter Phillips Evans Turner Torres Parker Collins Edwards Stewart Morris Murphy Cook Rogers Morgan Peterson Cooper Reed
Bailey Bell Kelly Howard Ward Cox Richardson Wood Watson Brooks Bennett Gray Grey James Hughes Price Sanders Myers Long Ross
Foster Powell Jenkins Perry Russell Sullivan Fisher Henderson Coleman Simmons Patterson Jordan Reynolds Hamilton Graham Wallace
Cole West Stone Hayes Gibson Ellis Marshall Owens McDonald Harrison Kennedy Warren Dixon Ramsey Burns Gordon Shaw Holmes Rice
Hunt Black Daniels Palmer Mills Nichols Grant Knight Ferguson Rose Stone Hawkins Dunn Perkins Hudson Spencer Gardner Stephens
Payne Pierce Berry Matthews Arnold Wagner Willis Ray Watkins Olson Carroll Duncan Snyder Hart Cunningham Bradley Lane Andrews
Ruiz Harper Fox Riley Armstrong Carpenter Weaver Greene Lawrence Elliott Chavez Sims Austin Peters Kelley Franklin Lawson
Fields Ryan Schmidt Carr Castillo Wheeler Chapman Oliver Montgomery Richards Williamson Johnston Banks Meyer Bishop McCoy
Howell Morrison Hansen Harvey Little Burton Stanley Nguyen George Jacobs Reid Fuller Lynch Dean Gilbert Garrett Romero Welch
Larson Frazier Burke Hanson Day Mendoza Moreno Bowman Medina Fowler Brewer Hoffman Carlson Silva Pearson Holland Douglas Fleming
Jensen Vargas Byrd Davidson Hopkins May Terry Herrera Wade Soto Walters Curtis Neal Caldwell Lowe Jennings Barnett Graves
Jimenez Horton Shelton Barrett Obrien O'Brien Castro Sutton Gregory McKinney Lucas Miles Craig Rodriquez Chambers Holt Lambert
Fletcher Watts Bates Hale Rhodes Pena Beck Newman Haynes McDaniel Mendez Bush Vaughn Parks Dawson Santiago Norris Hardy Love
Steele Curry Powers Schultz Barker Guzman Page Munoz Ball Keller Chandler Weber Leonard Walsh Lyons Ramsey Wolfe Schneider
Mullins Benson Sharp Bowen Daniel Barber Cummings Hines Baldwin Griffith Valdez Hubbard Salazar Reeves Warner Stevenson Burgess
Santos Tate Cross Garner Mann Mack Moss Thornton Dennis McGee Farmer Delgado Aguilar Vega Glover Manning Cohen Harmon Rodgers
Robbins Newton Todd Blair Higgins Ingram Reese Cannon Strickland Townsend Potter Goodwin Walton Rowe Hampton Ortega Patton Swanson
Joseph Francis Goodman Maldonado Yates Becker Erickson Hodges Rios Conner Adkins Webster Norman Malone Hammond Flowers Cobb
Moody Quinn Blake Maxwell Pope Floyd Osborne Paul McCarthy Guerrero Lindsey Estrada Sandoval Gibbs Tyler Gross Fitzgerald Stokes
Doyle Sherman Saunders Wise Colon Gill Alvarado Greer Padilla Simon Waters Nunez Ballard Schwartz McBride Houston Christensen
Klein Pratt Briggs Parsons McLaughlin Zimmerman French Buchanan Moran Copeland Roy Pittman Brady McCormick Holloway Brock
Poole Frank Logan Owen Bass Marsh Drake Wong Jefferson Park Morton Abbott Sparks Patrick Norton Huff Clayton Massey Lloyd
Figueroa Carson Bowers Roberson Barton Tran Lamb Harrington Casey Boone Cortez Clarke Mathis Singleton Wilkins Cain Bryan
Underwood Hogan McKenzie Collier Luna Phelps McGuire Allison Bridges Wilkerson Nash Summers Atkins Wilcox Pitts Conley Marquez
Burnett Richard Cochran Chase Davenport Hood Gates Clay Ayala Sawyer Roman Vazquez Dickerson Hodge Acosta Flynn Espinoza Nicholson
Monroe Wolf Morrow Kirk Randall Anthony Whitaker O'Connor Skinner Ware Molina Kirby Huffman Bradford Charles Gilmore Dominguez
O'Neal O'Neill Bruce Lang Combs Kramer Heath Hancock Gallagher Gaines Shaffer Short Wiggins Mathews McClain Fischer Wall Small
Melton Hensley Bond Dyer Cameron Grimes Contreras Christian Wyatt Baxter Snow Mosley Shepherd Larsen Hoover Beasley Glenn
Petersen Whitehead Meyers Keith Garrison Vincent Shields Horn Savage Olsen Schroeder Hartman Woodard Mueller Kemp Deleon Booth
Patel Singh Shah Khan Kumar Sharma Gupta Mehta Joshi Chopra Reddy Rao Iyer Nair Das Bose Chatterjee Mukherjee Banerjee Ahmed
Hussain Rahman Ali Mahmoud Haddad Nasser Saleh Aziz Karimi Hosseini Rahimi Benali Bouzid El Amrani Alaoui Benjelloun Chaoui
Idrissi Mansouri Tazi Ziani Belkacem Bensaid Cherif Haddou Chen Wang Zhang Liu Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo
He Lin Luo Zheng Liang Tanaka Suzuki Takahashi Watanabe Yamamoto Nakamura Kobayashi Kato Yoshida Yamada Sato Kim Lee Choi
Jung Kang Cho Yoon Jang Lim Han Nguyen Tran Le Pham Hoang Phan Vu Dang Bui Do Ho Ngo Duong Ly Rossi Russo Ferrari Esposito
Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti DeLuca Costa Giordano Mancini Rizzo Lombardi Moretti Barbieri
Fontana Santoro Mariani Rinaldi Caruso Ferrara Galli Martini Leone Longo Gentile Martinelli Vitale Lombardo Serra Coppola
DeSantis D'Angelo Marchetti Parisi Villa Conte Ferri Fabbri Bianco Marini Grasso Valentini Messina Sala DeAngelis Gatti
Pellegrini Palumbo Sanna Farina Rizzi Monti Cattaneo Morelli Amato Silvestri Mazza Testa Grassi Pellegrino Carbone Giuliani
Benedetti Barone Rossetti Caputo Montanari Guerra Palmieri Bernardi Martino Fiore DeRosa Ferretti Bellini Basile Riva Donati
Piras Vitali Battaglia Sartori Neri Costantini Milani Pagano Ruggiero Sorrentino D'Amico Orlando Damico Negri Dubois Durand
Lefebvre Leroy Moreau Simon Laurent Michel Garcia Bertrand Roux Vincent Fournier Morel Girard Andre Mercier Dupont Lambert
Bonnet Francois Martinez Legrand Garnier Faure Rousseau Blanc Guerin Muller Henry Roussel Nicolas Perrin Morin Mathieu
Clement Gauthier Dumont Lopez Fontaine Chevalier Robin Masson Sanchez Gerard Nguyen Boyer Denis Lemaire Duval Joly Gautier
Roger Roche Roy Noel Meyer Lucas Meunier Jean Perez Marchand Dufour Blanchard Marie Barbier Brun Dumas Brunet Schmitt Leroux
Colin Fernandez Pierre Renard Arnaud Rolland Caron Aubert Giraud Leclerc Vidal Bourgeois Renaud Lemoine Picard Gaillard Philippe
Leclercq Lacroix Fabre Dupuis Olivier Rodriguez DaSilva Hubert Louis Charles Guillot Riviere LeGall Guillaume Adam Rey Moulin
Gonzalez Berger Lecomte Menard Fleury Deschamps Carpentier Julien Benoit Paris Maillard Marchal Aubry Vasseur LeRoux Renault
Jacquet Collet Prevost Poirier Charpentier Royer Huet Baron Dupuy Pons Paul Laine Carre Breton Remy Schneider Perrot Guyot
Barre Marty Cousin Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter
Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner Schmitz Krause Meier Lehmann
Schmid Schulze Maier Köhler Herrmann König Walter Mayer Huber Kaiser Fuchs Peters Lang Scholz Möller Weiß Jung Hahn Schubert
Vogel Friedrich Keller Günther Frank Berger Winkler Roth Beck Lorenz Baumann Franke Albrecht Schuster Simon Ludwig Böhm
Winter Kraus Martin Schumacher Krämer Vogt Stein Jäger Otto Sommer Groß Seidel Heinrich Brandt Haas Schreiber Graf Schulte
Dietrich Ziegler Kuhn Kühn Pohl Engel Horn Busch Bergmann Thomas Voigt Sauer Arnold Wolff Pfeiffer Silva Santos Ferreira
Pereira Oliveira Costa Rodrigues Martins Jesus Sousa Fernandes Gonçalves Gomes Lopes Marques Alves Almeida Ribeiro Pinto
Carvalho Teixeira Moreira Correia Mendes Nunes Soares Vieira Monteiro Cardoso Rocha Raposo Neves Coelho Cruz Cunha Pires Ramos
Reis Simões Antunes Matos Fonseca Machado Araújo Barbosa Tavares Lourenço Castro Figueiredo Azevedo Freitas Popescu Ionescu
Popa Pop Radu Dumitru Stan Stoica Gheorghe Matei Ciobanu Constantin Munteanu Marin Rusu Mihai Serban Dinu Lungu Florea
Nowak Kowalski Wisniewski Wójcik Kowalczyk Kaminski Lewandowski Zielinski Szymanski Wozniak Dabrowski Kozlowski Jankowski
Mazur Kwiatkowski Krawczyk Piotrowski Grabowski Ivanov Petrov Sidorov Smirnov Kuznetsov Popov Sokolov Lebedev Kozlov Novikov
Morozov Volkov Solovyov Vasiliev Zaitsev Pavlov Semenov Golubev Vinogradov Bogdanov Shevchenko Kovalenko Bondarenko Tkachenko
Kravchenko Oliynyk Melnyk Boyko Kovalchuk Murphy Kelly O'Sullivan Walsh O'Brien Byrne Ryan O'Connor O'Neill Reilly O'Reilly
Doyle McCarthy Gallagher Doherty Kennedy Lynch Murray Quinn Moore McLoughlin O'Carroll Connolly Daly Connell Wilson Dunne
Brennan Burke Collins Campbell Clarke Johnston Hughes Farrell Fitzgerald Brown Martin Maguire Nolan Flynn Thompson Callaghan
O'Donnell Duffy Mahony Boyle Healy O'Shea White Sweeney Hayes Kavanagh Power McGrath Moran Brady Stewart Casey Foley Fitzpatrick
O'Leary McDonnell MacDonald MacKenzie MacLeod Robertson Reid Ross Paterson Fraser Mackay Sinclair Ogilvie Buchanan Henderson
Jansen DeJong DeVries VanDijk Bakker Visser Smit Meijer DeBoer Mulder DeGroot Bos Vos Peters Hendriks VanLeeuwen Dekker
Brouwer DeWit Dijkstra Smits DeGraaf VanDerMeer Andersson Johansson Karlsson Nilsson Eriksson Larsson Olsson Persson
Svensson Gustafsson Pettersson Jonsson Hansen Johansen Olsen Larsen Andersen Pedersen Nielsen Kristiansen Jensen Christensen
Rasmussen Jorgensen Sorensen Madsen Korhonen Virtanen Makinen Nieminen Hamalainen Laine Heikkinen Koskinen Jarvinen
Abramson Ackerman Aldridge Ashworth Atkinson Blackwood Bradshaw Brennan Calloway Cartwright Castellanos Chadwick Clifford
Cromwell Dalton Donovan Donnelly Eastwood Emerson Fairbanks Faulkner Fenwick Finch Gallagher Garland Gillespie Goldberg
Goldstein Greenberg Hargreaves Hawthorne Hemingway Holloway Hutchinson Kaplan Kendall Kingsley Langley Levine Levy Lockhart
Macintosh Mayfield McAllister McIntyre McKay McNamara Merriweather Montague Northcott Pemberton Prescott Radcliffe Rosenberg
Rothschild Sinclair Stanton Stirling Thornhill Wainwright Whitfield Winslow Worthington Yardley
`;
