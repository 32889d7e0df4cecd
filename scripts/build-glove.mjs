console.log('glove build placeholder')
